/**
 * Oracle for `agentcore-memory` bodies `{events: [...], nextToken?}`: every event must be one the
 * service's CreateEvent takes, by the limits of ../shared/reference/agentcore-memory.md §1 (the
 * Smithy model at aws-sdk-js-v3 088f0580): at most 100 payloads, each exactly one of
 * `conversational` {role USER|ASSISTANT|TOOL|OTHER, content {text of 1-100,000 characters}} or
 * `blob`; at most 15 metadata entries, keys of 1-128 and `{stringValue}` values of 0-256 characters
 * from `[a-zA-Z0-9\s._:/=+@-]`; identifiers by their patterns. A blob must be JSON text: the service
 * hands an object blob back as a Java `Map.toString` string (§1.2). Written from the reference, not
 * from the codec's constants, so the two check each other.
 * `validateAgentcoreMemory(kind, value)` returns one message per problem (`events.0.payload.3: ...`).
 */
const MAX_PAYLOADS = 100;
const MAX_TEXT = 100_000;
const MAX_ENTRIES = 15;
const MAX_KEY = 128;
const MAX_VALUE = 256;
// `\s` read as ASCII whitespace: the service's own regex engine is not documented.
const CHARSET = /^[a-zA-Z0-9 \t\n\x0B\f\r._:/=+@-]*$/;
const ROLES = new Set(['USER', 'ASSISTANT', 'TOOL', 'OTHER']);

const PATTERNS: Record<string, { re: RegExp; min?: number; max?: number }> = {
  memoryId: { re: /^(arn:(aws|aws-cn|aws-us-gov):bedrock-agentcore:[a-z0-9-]+:[0-9]{12}:memory\/)?[a-zA-Z][a-zA-Z0-9-_]{0,99}-[a-zA-Z0-9]{10}$/, min: 12 },
  actorId: { re: /^[a-zA-Z0-9][a-zA-Z0-9-_/]*(?::[a-zA-Z0-9-_/]+)*[a-zA-Z0-9-_/]*$/, min: 1, max: 255 },
  sessionId: { re: /^[a-zA-Z0-9][a-zA-Z0-9-_]*$/, min: 1, max: 100 },
  eventId: { re: /^[0-9]+#[a-fA-F0-9]+$/ },
};
const BRANCH_NAME = /^[a-zA-Z0-9][a-zA-Z0-9-_]*$/;
/** Event fields: CreateEvent's input and what ListEvents returns per event. */
const EVENT_KEYS = new Set(['payload', 'metadata', 'memoryId', 'actorId', 'sessionId', 'eventId', 'eventTimestamp', 'branch', 'clientToken', 'extractionMode', 'extractionConfig']);

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Smithy lengths count Unicode code points. */
const codePoints = (s: string): number => {
  let n = 0;
  for (const _c of s) n++;
  return n;
};

function checkPayload(p: unknown, at: string, out: string[]): void {
  if (!isObj(p) || Object.keys(p).length !== 1 || !('conversational' in p || 'blob' in p)) {
    out.push(`${at}: a payload is exactly one of conversational or blob`);
    return;
  }
  if ('blob' in p) {
    if (typeof p['blob'] !== 'string') out.push(`${at}.blob: an object blob comes back from ListEvents as a Java Map.toString string; store JSON text`);
    return;
  }
  const c = p['conversational'];
  if (!isObj(c) || Object.keys(c).some((k) => k !== 'role' && k !== 'content')) {
    out.push(`${at}.conversational: is {role, content}`);
    return;
  }
  if (typeof c['role'] !== 'string' || !ROLES.has(c['role'])) out.push(`${at}.conversational.role: ${JSON.stringify(c['role'])} is not USER, ASSISTANT, TOOL or OTHER`);
  const content = c['content'];
  if (!isObj(content) || Object.keys(content).length !== 1 || typeof content['text'] !== 'string') {
    out.push(`${at}.conversational.content: is {text: string}`);
    return;
  }
  const n = codePoints(content['text']);
  if (n < 1 || n > MAX_TEXT) out.push(`${at}.conversational.content.text: ${n} characters (1-${MAX_TEXT} allowed)`);
}

function checkMetadata(meta: unknown, at: string, out: string[]): void {
  if (!isObj(meta)) {
    out.push(`${at}: is a map of {stringValue}`);
    return;
  }
  const keys = Object.keys(meta);
  if (keys.length > MAX_ENTRIES) out.push(`${at}: ${keys.length} entries (at most ${MAX_ENTRIES})`);
  for (const k of keys) {
    if (k.length < 1 || k.length > MAX_KEY || !CHARSET.test(k)) out.push(`${at}.${k}: the key is not 1-${MAX_KEY} characters of [a-zA-Z0-9\\s._:/=+@-]`);
    const v = meta[k];
    if (!isObj(v) || Object.keys(v).length !== 1 || typeof v['stringValue'] !== 'string') {
      out.push(`${at}.${k}: the value is {stringValue: string}`);
      continue;
    }
    const s = v['stringValue'];
    if (s.length > MAX_VALUE || !CHARSET.test(s)) out.push(`${at}.${k}.stringValue: not 0-${MAX_VALUE} characters of [a-zA-Z0-9\\s._:/=+@-]`);
  }
}

function checkEvent(e: unknown, at: string, out: string[]): void {
  if (!isObj(e)) {
    out.push(`${at}: an event is an object`);
    return;
  }
  for (const k of Object.keys(e)) if (!EVENT_KEYS.has(k)) out.push(`${at}.${k}: not a field of an event`);
  const payload = e['payload'];
  if (!Array.isArray(payload)) out.push(`${at}.payload: required, a list`);
  else {
    if (payload.length > MAX_PAYLOADS) out.push(`${at}.payload: ${payload.length} payloads (at most ${MAX_PAYLOADS})`);
    payload.forEach((p, j) => checkPayload(p, `${at}.payload.${j}`, out));
  }
  if (e['metadata'] !== undefined) checkMetadata(e['metadata'], `${at}.metadata`, out);
  for (const [k, rule] of Object.entries(PATTERNS)) {
    const v = e[k];
    if (v === undefined) continue;
    if (typeof v !== 'string' || !rule.re.test(v) || (rule.min !== undefined && v.length < rule.min) || (rule.max !== undefined && v.length > rule.max)) out.push(`${at}.${k}: ${JSON.stringify(v)} does not match the ${k} pattern`);
  }
  const ts = e['eventTimestamp'];
  if (ts !== undefined && !(typeof ts === 'number' && Number.isFinite(ts)) && !(typeof ts === 'string' && !Number.isNaN(Date.parse(ts)))) out.push(`${at}.eventTimestamp: not a timestamp`);
  const branch = e['branch'];
  if (branch !== undefined) {
    if (!isObj(branch) || typeof branch['name'] !== 'string' || !BRANCH_NAME.test(branch['name']) || branch['name'].length > 100) out.push(`${at}.branch: {name} of 1-100 characters [a-zA-Z0-9-_] is required`);
    else if (branch['rootEventId'] !== undefined && (typeof branch['rootEventId'] !== 'string' || !PATTERNS['eventId']?.re.test(branch['rootEventId']))) out.push(`${at}.branch.rootEventId: not an event id`);
  }
  if (e['extractionMode'] !== undefined && e['extractionMode'] !== 'SKIP') out.push(`${at}.extractionMode: only SKIP`);
}

export function validateAgentcoreMemory(kind: 'request' | 'response', value: unknown): string[] {
  if (kind !== 'request') return ['AgentCore Memory has no response body (its kind is a conversation of events)'];
  if (!isObj(value)) return ['(root): is {events: [...]}'];
  const out: string[] = [];
  for (const k of Object.keys(value)) if (k !== 'events' && k !== 'nextToken') out.push(`${k}: not a field of an events list`);
  const events = value['events'];
  if (!Array.isArray(events)) return [...out, 'events: required, a list'];
  if (value['nextToken'] !== undefined && value['nextToken'] !== null && typeof value['nextToken'] !== 'string') out.push('nextToken: a string');
  events.forEach((e, i) => checkEvent(e, `events.${i}`, out));
  return out;
}
