/** The AG-UI codec (`ag-ui`): RunAgentInput as the request kind, and AG-UI event streams. */
import type { Codec } from '../codec.js';
import { decodeRequest } from './request-decode.js';
import { encodeRequest } from './request-encode.js';
import { AguiStreamDecoder } from './stream-decode.js';
import { AguiStreamEncoder } from './stream-encode.js';

export const agUi: Codec = {
  id: 'ag-ui',
  title: 'AG-UI',
  request: { decode: decodeRequest, encode: encodeRequest },
  // AG-UI's HTTP transport: one `data: <event JSON>` frame per event, no `event:` names.
  stream: { framing: 'sse', decoder: (ctx) => new AguiStreamDecoder(ctx), encoder: (ctx) => new AguiStreamEncoder(ctx) },
};

export type { RunAgentInput, Message as AguiMessage, AguiEvent } from './ag-ui-api.js';
