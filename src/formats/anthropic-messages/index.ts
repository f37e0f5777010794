/** The Anthropic Messages codec (POST /v1/messages): request and non-streaming response. */
import type { Codec } from '../codec.js';
import { requestCodec } from './request.js';
import { responseCodec } from './response.js';

export type { AnthropicRequest, AnthropicResponse } from './anthropic-messages-api.js';

export const anthropicMessages: Codec = {
  id: 'anthropic-messages',
  title: 'Anthropic Messages',
  request: requestCodec,
  response: responseCodec,
};
