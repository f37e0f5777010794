/** The OpenAI Responses codec (`openai-responses`, POST /v1/responses): requests, responses and streams. */
import type { Codec } from '../codec.js';
import { openaiErrors } from '../shared/openai-errors.js';
import { decodeRequest } from './request-decode.js';
import { encodeRequest } from './request-encode.js';
import { decodeResponse, encodeResponse } from './response.js';
import { ResponsesStreamDecoder } from './stream-decode.js';
import { ResponsesStreamEncoder } from './stream-encode.js';

export const openaiResponses: Codec = {
  id: 'openai-responses',
  title: 'OpenAI Responses',
  request: { decode: decodeRequest, encode: encodeRequest },
  response: { decode: decodeResponse, encode: encodeResponse },
  // SSE with `event: <type>` lines, as the API writes them.
  stream: { framing: 'sse', decoder: (ctx) => new ResponsesStreamDecoder(ctx), encoder: (ctx) => new ResponsesStreamEncoder(ctx) },
  errors: openaiErrors,
};

export type { ResponsesRequest, ResponsesResponse } from './openai-responses-api.js';
