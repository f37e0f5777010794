/**
 * Identifiers as AgentCore Memory validates them (../shared/reference/agentcore-memory.md §1.1, the
 * Smithy model of aws-sdk-js-v3 088f0580). Every backend calls these before touching storage, so a
 * bad identifier is the same `ValidationError` everywhere, naming the field.
 *
 * Character classes are written out (`[a-zA-Z0-9_/-]`) where Smithy writes `[a-zA-Z0-9-_/]`: the
 * same set (a `-` after a range is literal in Java and in non-unicode JS regexes), without relying
 * on that reading.
 */
import { ValidationError } from '../model/errors.js';

export type IdField = 'memoryId' | 'actorId' | 'sessionId' | 'eventId';

interface IdRule {
  min: number;
  max?: number;
  pattern: RegExp;
  /** The pattern as AgentCore documents it, for the error message. */
  shown: string;
}

const RULES: Readonly<Record<IdField, IdRule>> = {
  // Plain id, or the ARN form newer API docs accept (reference §1.1).
  memoryId: {
    min: 12,
    pattern:
      /^(?:arn:(?:aws|aws-cn|aws-us-gov):bedrock-agentcore:[a-z0-9-]+:[0-9]{12}:memory\/)?[a-zA-Z][a-zA-Z0-9_-]{0,99}-[a-zA-Z0-9]{10}$/,
    shown: '^[a-zA-Z][a-zA-Z0-9-_]{0,99}-[a-zA-Z0-9]{10}$ (optionally after a memory ARN prefix)',
  },
  // Colons only as inner separators (the newer pattern; the older one allowed none).
  actorId: {
    min: 1,
    max: 255,
    pattern: /^[a-zA-Z0-9][a-zA-Z0-9_/-]*(?::[a-zA-Z0-9_/-]+)*[a-zA-Z0-9_/-]*$/,
    shown: '^[a-zA-Z0-9][a-zA-Z0-9-_/]*(?::[a-zA-Z0-9-_/]+)*[a-zA-Z0-9-_/]*$',
  },
  sessionId: { min: 1, max: 100, pattern: /^[a-zA-Z0-9][a-zA-Z0-9_-]*$/, shown: '^[a-zA-Z0-9][a-zA-Z0-9-_]*$' },
  eventId: { min: 1, pattern: /^[0-9]+#[a-fA-F0-9]+$/, shown: '^[0-9]+#[a-fA-F0-9]+$' },
};

function fail(field: IdField, message: string, received: string): never {
  throw new ValidationError([{ code: 'invalid_identifier', path: [field], message, received }]);
}

/** Throws a `ValidationError` on `[field]` unless `value` is an identifier AgentCore accepts there. */
export function checkId(field: IdField, value: unknown): string {
  if (typeof value !== 'string') fail(field, 'must be a string', typeof value);
  const rule = RULES[field];
  const shownValue = value.length > 60 ? `${JSON.stringify(value.slice(0, 60))}...` : JSON.stringify(value);
  if (value.length < rule.min) {
    fail(field, `must be at least ${rule.min} character${rule.min === 1 ? '' : 's'} long`, shownValue);
  }
  // Length before pattern: the actorId pattern backtracks quadratically on long non-matching input.
  if (rule.max !== undefined && value.length > rule.max) {
    fail(field, `must be at most ${rule.max} characters long (got ${value.length})`, shownValue);
  }
  if (!rule.pattern.test(value)) fail(field, `${shownValue} does not match ${rule.shown}`, shownValue);
  return value;
}

/** Where an event sits in its session: the order key every backend sorts on. */
export interface Position {
  /** eventTimestamp, epoch milliseconds. */
  ts: number;
  /** Per-session sequence, from 1, assigned in append order. */
  seq: number;
}

const TS_DIGITS = 19;
const RANDOM_HEX = 8;

/**
 * An eventId in the form AgentCore returns (`0000001752235548000#97f30a6b`: zero-padded epoch
 * milliseconds, `#`, hex). The hex is the sequence (at least 8 digits) then 8 random digits, so ids
 * sort as strings in (timestamp, sequence) order and the position can be read back from the id.
 */
export function makeEventId(pos: Position): string {
  let random = '';
  for (let i = 0; i < RANDOM_HEX; i++) random += Math.floor(Math.random() * 16).toString(16);
  return `${String(pos.ts).padStart(TS_DIGITS, '0')}#${pos.seq.toString(16).padStart(8, '0')}${random}`;
}

/** The position an id made by `makeEventId` encodes, or undefined for an id this store did not make. */
export function positionOfEventId(eventId: string): Position | undefined {
  const hash = eventId.indexOf('#');
  const hex = eventId.slice(hash + 1);
  if (hash < 1 || hex.length < 8 + RANDOM_HEX) return undefined;
  const ts = Number(eventId.slice(0, hash));
  const seq = Number.parseInt(hex.slice(0, hex.length - RANDOM_HEX), 16);
  if (!Number.isSafeInteger(ts) || !Number.isSafeInteger(seq) || seq < 1) return undefined;
  return { ts, seq };
}
