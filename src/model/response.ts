import type { HasExt } from './ext.js';
import type { Message } from './message.js';
import type { StopReason } from './stop-reason.js';
import type { Usage } from './usage.js';

/** One generated alternative. Most providers return exactly one. */
export interface Choice extends HasExt {
  index: number;
  message: Message;
  stopReason?: StopReason;
}

export interface Response extends HasExt {
  id?: string;
  model?: string;
  /** Unix seconds. */
  created?: number;
  choices: Choice[];
  usage?: Usage;
}
