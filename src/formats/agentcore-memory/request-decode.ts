/**
 * `{ "events": [...] }` (ListEvents-shaped) -> canonical Request: the events' messages, read in
 * conversation order (order.ts), are the conversation. The body's other fields (`nextToken` ...) stay
 * in ext for the way back; fields an earlier encode had no slot for come back from the body stash.
 */
import { ValidationError, type Issue } from '../../model/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { Request } from '../../model/request.js';
import type { DecodeContext } from '../codec.js';
import { applyTopStash } from '../shared/apply-top-stash.js';
import { keepResidue, residue } from '../shared/residue.js';
import { AGENTCORE, BODY_KEYS } from './agentcore-memory-api.js';
import { readConversation } from './events-read.js';
import { readingOrder } from './order.js';

export function decodeRequest(body: unknown, ctx: DecodeContext): Request {
  if (!isJsonObject(body)) {
    throw new ValidationError([{ code: 'invalid_type', path: [], message: 'an agentcore-memory body is a JSON object {events: [...]}', expected: 'object' }]);
  }
  const events = body['events'];
  if (!Array.isArray(events)) {
    throw new ValidationError([{ code: 'invalid_type', path: ['events'], message: events === undefined ? 'events is required' : 'events is not an array', expected: 'array' }]);
  }
  const issues: Issue[] = [];
  const order = readingOrder(events, issues);
  const messages = readConversation(order.map((i) => events[i] as JsonValue), order, ctx, issues, ctx.hints !== false);
  if (issues.length > 0) throw new ValidationError(issues);
  const req: Request = { messages };
  let rest = residue(body, BODY_KEYS);
  if (order.some((v, k) => v !== k)) (rest ??= {})['$order'] = order;
  keepResidue(req, AGENTCORE, rest);
  const fields = applyTopStash(req as unknown as JsonObject, body, ctx);
  // A conversation of system messages only had no event to stash them in.
  if (events.length === 0 && Array.isArray(fields?.['$messages'])) req.messages = fields['$messages'] as unknown as Message[];
  return req;
}
