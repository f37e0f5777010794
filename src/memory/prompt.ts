/**
 * Recalled messages as the prompt text of the source design's memory hook: `Recent conversation:`
 * then one line per message, oldest first, `<role>: <content>` with the canonical role (`user`,
 * `assistant`, `tool`). No messages give ''.
 *
 * Only text is shown as is; everything else is a readable bracketed note, so nothing a message said
 * disappears and nothing opaque (signatures, encrypted reasoning, base64 data) is pasted in:
 * - tool call `[tool call get_weather {"city":"Paris"}]` (arguments as JSON, in full);
 * - tool result `[tool result get_weather: 18°C]`, `[tool error get_weather: ...]` (its parts, each
 *   rendered by these rules; the name is the result's own or its call's, else the call id);
 * - reasoning `[reasoning: ...]` with its text or summaries; opaque only: `[reasoning (redacted)]`;
 * - image / audio / video `[image image/png]`, `[image https://...]`; document
 *   `[document "report.pdf" application/pdf]`, a text document with its text;
 * - refusal `[refusal: ...]`, data `[data {...}]` (JSON), search result `[search result "title"
 *   source: texts]`, provider block `[<origin> <block type>]`.
 * Parts of one message are joined by a space. A text's own line breaks are kept, each further line
 * indented by two spaces, so it cannot be read as a line of another speaker.
 */
import type { Message } from '../model/message.js';
import type { Part } from '../model/part.js';
import type { Source } from '../model/source.js';

export const PROMPT_HEADING = 'Recent conversation:';

function sourceLabel(source: Source): string {
  switch (source.kind) {
    case 'base64':
      return source.mediaType;
    case 'url':
      return source.url;
    case 'file-id':
      return `file ${source.fileId}`;
    case 's3':
      return source.uri;
    case 'text':
      return source.mediaType ?? 'text/plain';
    case 'content':
      return 'content';
  }
}

/** Tool names by call id, for results that do not carry their tool's name. */
type Names = ReadonlyMap<string, string>;

function documentText(source: Source, names: Names): string | undefined {
  if (source.kind === 'text') return source.text;
  if (source.kind === 'content') return source.parts.map((p) => partText(p, names)).join(' ');
  return undefined;
}

function partText(part: Part, names: Names): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'tool-call':
      return `[tool call ${part.name} ${part.argumentsJson ?? JSON.stringify(part.arguments)}]`;
    case 'tool-result': {
      const label = part.isError === true ? 'tool error' : 'tool result';
      const body = part.content.map((p) => partText(p, names)).join(' ');
      return `[${label} ${part.name ?? names.get(part.callId) ?? part.callId}${body === '' ? '' : `: ${body}`}]`;
    }
    case 'reasoning': {
      const text = part.text ?? (part.summary !== undefined ? part.summary.join(' ') : undefined);
      return text === undefined || text === '' ? '[reasoning (redacted)]' : `[reasoning: ${text}]`;
    }
    case 'image':
    case 'audio':
    case 'video':
      return `[${part.type} ${sourceLabel(part.source)}]`;
    case 'document': {
      const name = part.name ?? part.title;
      const head = `[document${name === undefined ? '' : ` ${JSON.stringify(name)}`} ${sourceLabel(part.source)}`;
      const text = documentText(part.source, names);
      return text === undefined ? `${head}]` : `${head}: ${text}]`;
    }
    case 'refusal':
      return `[refusal: ${part.text}]`;
    case 'data':
      return `[data ${JSON.stringify(part.data)}]`;
    case 'search-result': {
      const body = part.content.map((t) => t.text).join(' ');
      return `[search result${part.title === undefined ? '' : ` ${JSON.stringify(part.title)}`} ${part.source}${body === '' ? '' : `: ${body}`}]`;
    }
    case 'provider-block':
      return `[${part.origin} ${String(part.block['type'] ?? 'block')}]`;
  }
}

/** One message as its prompt line (continuation lines indented). */
export function messageLine(message: Message, names: Names = new Map()): string {
  const body = message.parts.map((p) => partText(p, names)).join(' ');
  return `${message.role}: ${body}`.replaceAll('\n', '\n  ');
}

/** The prompt text for recalled messages, '' when there are none. */
export function conversationPrompt(messages: readonly Message[]): string {
  if (messages.length === 0) return '';
  const names = new Map<string, string>();
  for (const m of messages) for (const p of m.parts) if (p.type === 'tool-call') names.set(p.id, p.name);
  return [PROMPT_HEADING, ...messages.map((m) => messageLine(m, names))].join('\n');
}
