import type { HasExt } from './ext.js';
import type { Part } from './part.js';

export type Role = 'system' | 'developer' | 'user' | 'assistant' | 'tool';

/**
 * One turn of a conversation: a role and its parts in order. Tool results may sit in a `tool`
 * message (OpenAI's shape) or in a `user` message (Anthropic's); encoders place them as their
 * target requires.
 */
export interface Message extends HasExt {
  role: Role;
  parts: Part[];
  /** The source gave the content as one plain string; encoders that can, write a string back. */
  stringContent?: true;
  /** A participant name (OpenAI `name`). */
  name?: string;
}
