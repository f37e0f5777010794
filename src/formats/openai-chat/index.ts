/** The OpenAI Chat Completions codec (`openai-chat`): requests and non-streaming responses. */
import type { Codec } from '../codec.js';
import { decodeRequest } from './request-decode.js';
import { encodeRequest } from './request-encode.js';
import { decodeResponse, encodeResponse } from './response.js';

export const openaiChat: Codec = {
  id: 'openai-chat',
  title: 'OpenAI Chat Completions',
  request: { decode: decodeRequest, encode: encodeRequest },
  response: { decode: decodeResponse, encode: encodeResponse },
};

export type { ChatRequest, ChatResponse } from './openai-chat-api.js';
