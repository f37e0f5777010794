/**
 * A generated stream, the same content in every stream dialect: a canonical stream (response
 * start, reasoning with its signature in ~80 small deltas, text in ~200 deltas of a few words,
 * 3 tool calls with their JSON arguments in 8-character deltas, usage, finish, end) encoded by
 * each dialect's own stream encoder into its wire events. Deterministic (seeded).
 */
import type { StreamEvent, WireEvent } from '../../src/model/stream-event.js';
import { getStreamCodec } from '../../src/formats/registry.js';
import { prng, TOOLS } from '../convert/generate.js';

const WORDS = 'the agent reads file config returns error value retry request token stream model tool call result parse schema field'.split(' ');

export function canonicalStream(seed = 11): StreamEvent[] {
  const rand = prng(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));
  const words = (n: number): string => Array.from({ length: n }, () => WORDS[int(0, WORDS.length - 1)] as string).join(' ') + ' ';
  const out: StreamEvent[] = [{ type: 'response-start', id: 'msg_01bench', model: 'claude-sonnet-4-5-20250929' }];
  let index = 0;
  out.push({ type: 'reasoning-start', index, origin: 'anthropic-messages' });
  for (let i = 0; i < 80; i++) out.push({ type: 'reasoning-delta', index, text: words(int(2, 6)) });
  const signature = Buffer.from(Array.from({ length: 480 }, () => int(0, 255))).toString('base64');
  out.push({ type: 'reasoning-delta', index, signature });
  out.push({ type: 'reasoning-end', index });
  index++;
  out.push({ type: 'text-start', index });
  for (let i = 0; i < 200; i++) out.push({ type: 'text-delta', index, delta: words(int(1, 4)) });
  out.push({ type: 'text-end', index });
  for (let c = 0; c < 3; c++) {
    index++;
    const tool = TOOLS[c] as (typeof TOOLS)[number];
    const args = JSON.stringify({ path: `src/${words(2).trim().replace(/ /g, '/')}.ts`, pattern: words(3).trim(), max_lines: int(10, 500), options: { recursive: true } });
    out.push({ type: 'tool-call-start', index, id: `toolu_01bench${c}`, name: tool.name });
    for (let at = 0; at < args.length; at += 8) out.push({ type: 'tool-call-delta', index, delta: args.slice(at, at + 8) });
    out.push({ type: 'tool-call-end', index, arguments: args });
  }
  out.push({ type: 'usage', usage: { inputTokens: 25000, outputTokens: 1800, cacheReadTokens: 20000 } });
  out.push({ type: 'finish', stopReason: { unified: 'tool-calls', raw: 'tool_use' } });
  out.push({ type: 'response-end' });
  return out;
}

/** The generated stream as `dialect`'s wire events (its encoder's losses are ignored: what it cannot say, it does not). */
export function syntheticWire(dialect: string): WireEvent[] {
  const encoder = getStreamCodec(dialect).encoder({ losses: { push: () => undefined } });
  const out: WireEvent[] = [];
  for (const e of canonicalStream()) out.push(...encoder.push(e));
  out.push(...encoder.end());
  return out;
}
