/**
 * ListEvents page tokens. A token is the position (timestamp, sequence) of the page's last event,
 * with the session and direction it belongs to: the next page starts strictly after it, so a token
 * stays valid while events are appended or deleted, and a restarted process can resume with it.
 */
import { ValidationError } from '../model/errors.js';
import type { Position } from './ids.js';

interface Token {
  v: 1;
  a: string;
  s: string;
  /** 1 = chronological, 0 = newest first. */
  c: 0 | 1;
  t: number;
  q: number;
}

export function encodeCursor(actorId: string, sessionId: string, chronological: boolean, pos: Position): string {
  const token: Token = { v: 1, a: actorId, s: sessionId, c: chronological ? 1 : 0, t: pos.ts, q: pos.seq };
  return Buffer.from(JSON.stringify(token)).toString('base64url');
}

function bad(message: string): never {
  throw new ValidationError([{ code: 'invalid_token', path: ['nextToken'], message }]);
}

export function decodeCursor(token: unknown, actorId: string, sessionId: string, chronological: boolean): Position {
  if (typeof token !== 'string' || token === '') bad('nextToken must be a non-empty string from an earlier page');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    bad('nextToken is not a token this store issued');
  }
  const t = parsed as Partial<Token> | null;
  if (
    typeof t !== 'object' || t === null || t.v !== 1 || typeof t.a !== 'string' || typeof t.s !== 'string' ||
    (t.c !== 0 && t.c !== 1) || !Number.isSafeInteger(t.t) || !Number.isSafeInteger(t.q)
  ) {
    bad('nextToken is not a token this store issued');
  }
  if (t.a !== actorId || t.s !== sessionId) bad(`nextToken belongs to session ${t.a}/${t.s}, not ${actorId}/${sessionId}`);
  if ((t.c === 1) !== chronological) bad(`nextToken was issued for ${t.c === 1 ? 'chronological' : 'newest-first'} order`);
  return { ts: t.t as number, seq: t.q as number };
}
