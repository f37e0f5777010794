/** The OpenAI Responses codec (`openai-responses`, POST /v1/responses): requests and non-streaming responses. */
import type { Codec } from '../codec.js';
import { decodeRequest } from './request-decode.js';
import { encodeRequest } from './request-encode.js';
import { decodeResponse, encodeResponse } from './response.js';

export const openaiResponses: Codec = {
  id: 'openai-responses',
  title: 'OpenAI Responses',
  request: { decode: decodeRequest, encode: encodeRequest },
  response: { decode: decodeResponse, encode: encodeResponse },
};

export type { ResponsesRequest, ResponsesResponse } from './openai-responses-api.js';
