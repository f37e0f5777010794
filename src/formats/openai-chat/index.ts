/** The OpenAI Chat Completions codec (`openai-chat`): requests, non-streaming responses and streams. */
import type { Codec } from '../codec.js';
import { openaiErrors } from '../shared/openai-errors.js';
import { decodeRequest } from './request-decode.js';
import { encodeRequest } from './request-encode.js';
import { decodeResponse, encodeResponse } from './response.js';
import { streamDecoder } from './stream-decode.js';
import { streamEncoder } from './stream-encode.js';

export const openaiChat: Codec = {
  id: 'openai-chat',
  title: 'OpenAI Chat Completions',
  request: { decode: decodeRequest, encode: encodeRequest },
  response: { decode: decodeResponse, encode: encodeResponse },
  // SSE `data:` chunks with no `event:` lines, ended by `data: [DONE]`.
  stream: { framing: 'sse', decoder: streamDecoder, encoder: streamEncoder },
  errors: openaiErrors,
};

export type { ChatRequest, ChatResponse } from './openai-chat-api.js';
