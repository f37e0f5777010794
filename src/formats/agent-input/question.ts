/**
 * The one string an agent runner wants as "the question" (ml-commons fills `parameters.question`
 * with it for prompt templates). Derived from the decoded canonical request, so it always agrees
 * with what decode produced (a preserve stash included).
 */
import type { Message } from '../../model/message.js';
import type { Part } from '../../model/part.js';
import { DEFAULT_LIMITS, type Limits } from '../codec.js';
import { LossList } from '../shared/loss-list.js';
import { AGENT_INPUT } from './agent-input-api.js';
import { decodeWithForm } from './request-decode.js';

export interface QuestionOptions {
  limits?: Limits;
  /**
   * 'agent' (default), the source design's rule: a string is itself; content blocks are their
   * text joined with a space; messages give the text of the last user message.
   * 'ml-commons', `AgentInputProcessor.extractQuestionText` (protocols.md §4.3): each non-blank
   * text trimmed and followed by a newline; messages give the messages after the last assistant
   * message (tool results included), joined with a newline.
   */
  style?: 'agent' | 'ml-commons';
}

function texts(parts: readonly Part[]): string[] {
  const out: string[] = [];
  for (const p of parts) {
    if (p.type === 'text') out.push(p.text);
    else if (p.type === 'tool-result') out.push(...texts(p.content));
  }
  return out;
}

function mlCommonsText(parts: readonly Part[]): string {
  return texts(parts)
    .filter((t) => t.trim() !== '')
    .map((t) => `${t.trim()}\n`)
    .join('');
}

function lastUserText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as Message;
    // A wire role with no canonical meaning decodes as a user message keeping that role: not the user.
    if (m.role === 'user' && typeof m.ext?.[AGENT_INPUT]?.['role'] !== 'string') return m.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join(' ');
  }
  return '';
}

function trailingAfterAssistant(messages: readonly Message[]): string {
  let start = 0;
  messages.forEach((m, i) => {
    if (m.role === 'assistant') start = i + 1;
  });
  return messages
    .slice(start)
    .map((m) => mlCommonsText(m.parts))
    .join('\n');
}

/** Validates `body` (throwing ValidationError like decode) and derives its question. */
export function deriveQuestion(body: unknown, options: QuestionOptions = {}): string {
  const { req, form } = decodeWithForm(body, { limits: options.limits ?? DEFAULT_LIMITS, losses: new LossList() });
  const first = req.messages[0];
  const mlCommons = options.style === 'ml-commons';
  switch (form) {
    case 'text':
    case 'legacy':
      return texts(first?.parts ?? []).join('');
    case 'blocks':
      return mlCommons ? mlCommonsText(first?.parts ?? []) : texts(first?.parts ?? []).join(' ');
    case 'messages':
      return mlCommons ? trailingAfterAssistant(req.messages) : lastUserText(req.messages);
  }
}
