/** The Anthropic Messages codec (POST /v1/messages): request, non-streaming response, and SSE stream. */
import type { Codec } from '../codec.js';
import { anthropicErrors } from './errors.js';
import { requestCodec } from './request.js';
import { responseCodec } from './response.js';
import { anthropicStreamDecoder } from './stream-decode.js';
import { anthropicStreamEncoder } from './stream-encode.js';

export type { AnthropicRequest, AnthropicResponse } from './anthropic-messages-api.js';

export const anthropicMessages: Codec = {
  id: 'anthropic-messages',
  title: 'Anthropic Messages',
  request: requestCodec,
  response: responseCodec,
  // Anthropic names every SSE event (`event: <type>`); its SDK skips events without a name.
  stream: { framing: 'sse', decoder: anthropicStreamDecoder, encoder: anthropicStreamEncoder },
  errors: anthropicErrors,
};
