/** The AWS Bedrock Converse codec (POST /model/{modelId}/converse and /converse-stream): request, response and stream. */
import type { Codec, KindCodec } from '../codec.js';
import { bedrockErrors } from './errors.js';
import type { Request } from '../../model/request.js';
import { decodeRequest } from './request-decode.js';
import { encodeRequest } from './request-encode.js';
import { responseCodec } from './response.js';
import { BedrockStreamDecoder } from './stream-decode.js';
import { BedrockStreamEncoder } from './stream-encode.js';

export type { BedrockRequest, BedrockResponse } from './bedrock-converse-api.js';

const requestCodec: KindCodec<Request> = {
  decode: decodeRequest,
  encode: (value, ctx) => encodeRequest(value, ctx),
};

export const bedrockConverse: Codec = {
  id: 'bedrock-converse',
  title: 'AWS Bedrock Converse',
  request: requestCodec,
  response: responseCodec,
  stream: {
    framing: 'aws-event-stream',
    decoder: (ctx) => new BedrockStreamDecoder(ctx),
    encoder: (ctx) => new BedrockStreamEncoder(ctx),
  },
  errors: bedrockErrors,
};
