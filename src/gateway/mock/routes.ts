/**
 * Which dialect a mock upstream call speaks, read from its path. Paths are matched by their
 * provider-specific ending, so the mock answers under any base-URL prefix (`/v1/chat/completions`,
 * `/chat/completions`, `/mock/v1/messages` ...): a gateway or SDK may append the provider's path
 * to whatever base URL it was given.
 */
import type { FormatId } from '../../model/format-id.js';

export interface MockRoute {
  format: FormatId;
  /** The endpoint itself streams (Gemini `:streamGenerateContent`, Bedrock `/converse-stream`). */
  streamEndpoint: boolean;
  /** Gemini `:streamGenerateContent` without `alt=sse` answers one JSON array instead of SSE. */
  jsonArray: boolean;
  /** The model named in the path (Gemini, Bedrock). */
  pathModel?: string;
}

const GEMINI = /\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;
const BEDROCK = /\/model\/([^/]+)\/(converse|converse-stream)$/;

export function matchMockRoute(url: URL): MockRoute | undefined {
  const path = url.pathname;
  if (path.endsWith('/chat/completions')) return { format: 'openai-chat', streamEndpoint: false, jsonArray: false };
  if (path.endsWith('/responses')) return { format: 'openai-responses', streamEndpoint: false, jsonArray: false };
  if (path.endsWith('/messages')) return { format: 'anthropic-messages', streamEndpoint: false, jsonArray: false };
  const gemini = GEMINI.exec(path);
  if (gemini) {
    const streaming = gemini[2] === 'streamGenerateContent';
    return { format: 'gemini', streamEndpoint: streaming, jsonArray: streaming && url.searchParams.get('alt') !== 'sse', pathModel: decode(gemini[1]) };
  }
  const bedrock = BEDROCK.exec(path);
  if (bedrock) return { format: 'bedrock-converse', streamEndpoint: bedrock[2] === 'converse-stream', jsonArray: false, pathModel: decode(bedrock[1]) };
  return undefined;
}

/** The dialect to answer an unknown path in: the provider its path looks like, else OpenAI Chat. */
export function guessFormat(url: URL): FormatId {
  const path = url.pathname;
  if (path.includes('/v1beta/') || path.includes(':generateContent') || path.includes('/models/')) return 'gemini';
  if (path.startsWith('/model/')) return 'bedrock-converse';
  if (path.includes('/messages')) return 'anthropic-messages';
  return 'openai-chat';
}

function decode(segment: string | undefined): string {
  if (segment === undefined) return '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
