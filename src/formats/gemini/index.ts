/** The Google Gemini generateContent codec (`gemini`): requests and non-streaming responses. */
import type { Codec } from '../codec.js';
import { decodeRequest, encodeRequest } from './request.js';
import { decodeResponse, encodeResponse } from './response.js';

export const gemini: Codec = {
  id: 'gemini',
  title: 'Google Gemini generateContent',
  request: { decode: decodeRequest, encode: encodeRequest },
  response: { decode: decodeResponse, encode: encodeResponse },
};

export type { GeminiRequest, GeminiResponse } from './gemini-api.js';
