import type { FormatId, Kind } from '../model/format-id.js';
import { UsageError } from '../model/errors.js';
import { codecKinds, type Codec, type KindCodec, type StreamCodec } from './codec.js';
import { a2a } from './a2a/index.js';
import { agentcoreMemory } from './agentcore-memory/index.js';
import { agUi } from './ag-ui/index.js';
import { agentInput } from './agent-input/index.js';
import { anthropicMessages } from './anthropic-messages/index.js';
import { bedrockConverse } from './bedrock-converse/index.js';
import { gemini } from './gemini/index.js';
import { openaiChat } from './openai-chat/index.js';
import { openaiResponses } from './openai-responses/index.js';

let built: ReadonlyMap<FormatId, Codec> | undefined;

/**
 * Built on first use, not on load: format folders that reach another format through the registry
 * (a2a's compactHistory, agentcore-memory's Strands reading) import it while these codecs' own
 * modules may still be loading.
 */
function codecs(): ReadonlyMap<FormatId, Codec> {
  built ??= new Map<FormatId, Codec>(
    [anthropicMessages, openaiChat, agentInput, gemini, bedrockConverse, openaiResponses, agUi, a2a, agentcoreMemory].map((c) => [c.id, c]),
  );
  return built;
}

export interface FormatInfo {
  id: FormatId;
  title: string;
  kinds: Kind[];
}

/** The formats this build can convert, with the kinds each supports. */
export function formats(): FormatInfo[] {
  return [...codecs().values()].map((c) => ({ id: c.id, title: c.title, kinds: codecKinds(c) }));
}

export function getCodec(id: string): Codec {
  // The map's keys are format ids, so any other string simply misses (no scan of the id list first).
  const known = codecs().get(id as FormatId);
  if (!known) {
    throw new UsageError(`unknown format '${id}'; known formats: ${[...codecs().keys()].join(', ')}`);
  }
  return known;
}

export function getKindCodec(id: string, kind: Kind): KindCodec<unknown> {
  const codec = getCodec(id);
  const kc = kind === 'request' ? codec.request : kind === 'response' ? codec.response : undefined;
  if (!kc) {
    throw new UsageError(`format '${id}' does not support kind '${kind}' (it supports: ${codecKinds(codec).join(', ')})`);
  }
  return kc as KindCodec<unknown>;
}

export function getStreamCodec(id: string): StreamCodec {
  const codec = getCodec(id);
  if (!codec.stream) {
    throw new UsageError(`format '${id}' does not support kind 'stream' (it supports: ${codecKinds(codec).join(', ')})`);
  }
  return codec.stream;
}
