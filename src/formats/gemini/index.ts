/** The Google Gemini generateContent codec (`gemini`): requests, responses and streamGenerateContent (alt=sse). */
import type { Codec } from '../codec.js';
import { geminiErrors } from './errors.js';
import { decodeRequest, encodeRequest } from './request.js';
import { decodeResponse, encodeResponse } from './response.js';
import { streamDecoder } from './stream-decode.js';
import { streamEncoder } from './stream-encode.js';

export const gemini: Codec = {
  id: 'gemini',
  title: 'Google Gemini generateContent',
  request: { decode: decodeRequest, encode: encodeRequest },
  response: { decode: decodeResponse, encode: encodeResponse },
  stream: { framing: 'sse', decoder: streamDecoder, encoder: streamEncoder },
  errors: geminiErrors,
};

export type { GeminiRequest, GeminiResponse } from './gemini-api.js';
