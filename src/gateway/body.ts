/**
 * Reading a client's request body: JSON only, never past the configured size (a declared
 * Content-Length over it is refused before reading; a body that grows past it is cut off).
 */
import { GatewayError } from './errors.js';
import { joinBytes } from '../stream/pack.js';

export interface ClientBody {
  bytes: Uint8Array;
  json: Record<string, unknown>;
}

function isJsonType(type: string): boolean {
  const media = (type.split(';')[0] ?? '').trim().toLowerCase();
  return media === 'application/json' || (media.startsWith('application/') && media.endsWith('+json'));
}

/** `anyContentType`: read the body as JSON whatever its declared type (the agent endpoints, whose clients vary). */
export async function readClientBody(req: Request, limit: number, options: { anyContentType?: boolean } = {}): Promise<ClientBody> {
  const type = req.headers.get('content-type');
  if (options.anyContentType !== true && type !== null && !isJsonType(type)) {
    throw new GatewayError(415, `the request body must be JSON (content-type application/json), not '${type}'`);
  }
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  // A declared length bounds what the server reads, so the body can be read whole (on Node, straight
  // from the socket without a Web stream); without one it is read chunk by chunk against the limit.
  const bytes = Number.isFinite(declared) ? await readDeclared(req, limit) : await readLimited(req, limit);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: false }).decode(bytes));
  } catch (err) {
    throw new GatewayError(400, `the request body is not valid JSON: ${(err as Error).message}`, undefined, {}, [{ code: 'invalid_json', path: [], message: (err as Error).message }]);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new GatewayError(400, 'the request body must be a JSON object', undefined, {}, [{ code: 'invalid_type', path: [], message: 'expected an object' }]);
  }
  return { bytes, json: json as Record<string, unknown> };
}

function tooLarge(limit: number): GatewayError {
  return new GatewayError(413, `the request body is larger than the gateway's limit of ${limit} bytes`);
}

async function readDeclared(req: Request, limit: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(await req.arrayBuffer());
  if (bytes.byteLength > limit) throw tooLarge(limit);
  return bytes;
}

async function readLimited(req: Request, limit: number): Promise<Uint8Array> {
  if (req.body === null) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? (chunks[0] as Uint8Array) : joinBytes(chunks);
}
