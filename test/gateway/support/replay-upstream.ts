/**
 * A local provider of every dialect that answers with real captured bodies and streams
 * (test/fixtures) on each dialect's real path, and records what it received. A test can replace
 * the answer of the next calls (`respond`) to send errors, stall, or cut a stream.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { LOCAL_FIXTURES } from '../../support/captures.js';

export type Dialect = 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'gemini' | 'bedrock-converse';
export const DIALECTS: Dialect[] = ['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini', 'bedrock-converse'];

/** The captures each dialect answers with: a final body with a tool call, and a stream with one. */
export const CAPTURES: Record<Dialect, { body: string; stream: string }> = {
  'openai-chat': { body: 'openai-chat/responses/mistral-tool-call.json', stream: 'streams/openai-chat/parse-multiple-pydantic-tools.sse' },
  'openai-responses': { body: 'openai-responses/responses/agentgateway/tool.json', stream: 'streams/openai-responses/lmstudio-tool-call.1.chunks.txt' },
  'anthropic-messages': { body: 'anthropic-messages/response/anthropic-json-tool.1.json', stream: 'streams/anthropic-messages/anthropic-sdk-typescript/tool_use_response.sse' },
  gemini: { body: 'gemini/responses/google-tool-call.json', stream: 'streams/gemini/google-tool-call.chunks.txt' },
  'bedrock-converse': { body: 'bedrock-converse/responses/amazon-bedrock-tool-call.1.json', stream: 'streams/bedrock-converse/tool.bin' },
};

export interface Received {
  dialect: Dialect;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  raw: Buffer;
  stream: boolean;
  /** Set when the gateway closed the connection before the answer was complete. */
  aborted: boolean;
}

export type Responder = (req: Received, res: ServerResponse) => boolean | Promise<boolean>;

export interface ReplayUpstream {
  url: string;
  received: Received[];
  /** Answers instead of the capture while it returns true; cleared by reset(). */
  respond: Responder | undefined;
  reset(): void;
  close(): Promise<void>;
}

function dialectOf(path: string): { dialect: Dialect; stream?: boolean } | undefined {
  if (path === '/v1/chat/completions') return { dialect: 'openai-chat' };
  if (path === '/v1/responses') return { dialect: 'openai-responses' };
  if (path === '/v1/messages') return { dialect: 'anthropic-messages' };
  if (/^\/v1beta\/models\/[^/]+:generateContent$/.test(path)) return { dialect: 'gemini', stream: false };
  if (/^\/v1beta\/models\/[^/]+:streamGenerateContent$/.test(path)) return { dialect: 'gemini', stream: true };
  if (/^\/model\/[^/]+\/converse$/.test(path)) return { dialect: 'bedrock-converse', stream: false };
  if (/^\/model\/[^/]+\/converse-stream$/.test(path)) return { dialect: 'bedrock-converse', stream: true };
  return undefined;
}

/** The capture's stream as the provider sends it: chunks to write one by one. */
export function streamChunks(dialect: Dialect): Buffer[] {
  const file = join(LOCAL_FIXTURES, CAPTURES[dialect].stream);
  if (file.endsWith('.bin')) {
    // Event-stream frames: split at frame boundaries (4-byte total length prefix).
    const all = readFileSync(file);
    const out: Buffer[] = [];
    for (let at = 0; at < all.length; ) {
      const len = all.readUInt32BE(at);
      out.push(all.subarray(at, at + len));
      at += len;
    }
    return out;
  }
  const text = readFileSync(file, 'utf8');
  if (file.endsWith('.sse')) return text.split(/(?<=\n\n)/).map((s) => Buffer.from(s));
  const lines = text.split('\n').filter((l) => l.trim() !== '').map((l) => Buffer.from(`data: ${l}\n\n`));
  if (dialect === 'openai-chat') lines.push(Buffer.from('data: [DONE]\n\n'));
  return lines;
}

export function captureBody(dialect: Dialect): unknown {
  return JSON.parse(readFileSync(join(LOCAL_FIXTURES, CAPTURES[dialect].body), 'utf8'));
}

export async function startReplayUpstream(): Promise<ReplayUpstream> {
  const received: Received[] = [];
  const state: ReplayUpstream = {
    url: '',
    received,
    respond: undefined,
    reset() {
      received.length = 0;
      state.respond = undefined;
    },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const which = dialectOf(url.pathname);
    if (which === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `replay: no path ${url.pathname}` } }));
      return;
    }
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    } catch {
      // recorded as {}; the test reads `raw`
    }
    const rec: Received = { dialect: which.dialect, path: url.pathname + url.search, headers: req.headers, body, raw, stream: which.stream ?? body['stream'] === true, aborted: false };
    received.push(rec);
    res.once('close', () => {
      if (!res.writableFinished) rec.aborted = true;
    });
    if (state.respond !== undefined && (await state.respond(rec, res))) return;
    if (!rec.stream) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(captureBody(which.dialect)));
      return;
    }
    res.writeHead(200, { 'content-type': which.dialect === 'bedrock-converse' ? 'application/vnd.amazon.eventstream' : 'text/event-stream' });
    for (const c of streamChunks(which.dialect)) res.write(c);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
