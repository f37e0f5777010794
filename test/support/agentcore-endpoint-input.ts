/**
 * Input checks of the local AgentCore Memory endpoint, written from the service's facts
 * (../shared/reference/agentcore-memory.md §1.1, §1.2, §1.5: the Smithy model of aws-sdk-js-v3
 * 088f0580) and not from our store's own checks, so the store is tested against the service's
 * rules rather than against itself.
 *
 * Failures read the way AWS's (Coral) request validation words them:
 * `2 validation errors detected: Value 'x y' at 'actorId' failed to satisfy constraint: Member must
 * satisfy regular expression pattern: ^...$; Value null at 'eventTimestamp' ...`, list positions
 * 1-based with `.member` (`payload.3.member.conversational.role`), sensitive values redacted.
 * The exact wording of the live service is UNCONFIRMED beyond that common Coral form.
 */

/** Smithy patterns as the model writes them (shown in messages), with `\s` read as Java reads it. */
export const PATTERNS = {
  memoryId: '^[a-zA-Z][a-zA-Z0-9-_]{0,99}-[a-zA-Z0-9]{10}$',
  memoryArn: '^arn:(aws|aws-cn|aws-us-gov):bedrock-agentcore:[a-z0-9-]+:[0-9]{12}:memory/[a-zA-Z][a-zA-Z0-9-_]{0,99}-[a-zA-Z0-9]{10}$',
  actorId: '^[a-zA-Z0-9][a-zA-Z0-9-_/]*(?::[a-zA-Z0-9-_/]+)*[a-zA-Z0-9-_/]*$',
  sessionId: '^[a-zA-Z0-9][a-zA-Z0-9-_]*$',
  eventId: '^[0-9]+#[a-fA-F0-9]+$',
  branchName: '^[a-zA-Z0-9][a-zA-Z0-9-_]*$',
  metadata: '^[a-zA-Z0-9\\s._:/=+@-]*$',
} as const;

// Without the `u` flag a `-` after a range is literal, as in Java; `\s` is Java's ASCII whitespace.
const compiled = (p: string): RegExp => new RegExp(p.replace('\\s', ' \\t\\n\\x0B\\f\\r'));
const RX = Object.fromEntries(Object.entries(PATTERNS).map(([k, p]) => [k, compiled(p)])) as Record<keyof typeof PATTERNS, RegExp>;

export const ROLES = ['ASSISTANT', 'USER', 'TOOL', 'OTHER'] as const;
const REDACTED = '*** Sensitive Data Redacted ***';

/** Collects constraint failures of one request. */
export class Problems {
  readonly list: string[] = [];

  add(value: unknown, path: string, constraint: string, sensitive = false): void {
    const shown = value === undefined || value === null ? 'null' : `'${sensitive ? REDACTED : javaString(value)}'`;
    this.list.push(`Value ${shown} at '${path}' failed to satisfy constraint: ${constraint}`);
  }

  get message(): string {
    const n = this.list.length;
    return `${n} validation error${n === 1 ? '' : 's'} detected: ${this.list.join('; ')}`;
  }
}

/**
 * How the service hands back a document it did not get as a string: Java's toString of the map or
 * list (`{content=hi, role=user}`, boto/boto3 #4614 via reference §1.2); strings come back as sent.
 */
export function javaString(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return `[${v.map(javaString).join(', ')}]`;
  if (v !== null && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${k}=${javaString(x)}`).join(', ')}}`;
  return String(v);
}

/** Smithy lengths count code points. */
const codePoints = (s: string): number => [...s].length;

export function checkString(p: Problems, value: unknown, path: string, rule: { min?: number; max?: number; pattern?: keyof typeof PATTERNS; required?: boolean; sensitive?: boolean }): value is string {
  if (value === undefined || value === null) {
    if (rule.required) p.add(value, path, 'Member must not be null');
    return false;
  }
  if (typeof value !== 'string') {
    p.add(value, path, 'Member must be a string', rule.sensitive);
    return false;
  }
  const before = p.list.length;
  const n = codePoints(value);
  if (rule.min !== undefined && n < rule.min) p.add(value, path, `Member must have length greater than or equal to ${rule.min}`, rule.sensitive);
  if (rule.max !== undefined && n > rule.max) p.add(value, path, `Member must have length less than or equal to ${rule.max}`, rule.sensitive);
  if (rule.pattern !== undefined && !RX[rule.pattern].test(value)) {
    p.add(value, path, `Member must satisfy regular expression pattern: ${PATTERNS[rule.pattern]}`, rule.sensitive);
  }
  return p.list.length === before;
}

export function checkMemoryId(p: Problems, value: string): void {
  if (codePoints(value) < 12) p.add(value, 'memoryId', 'Member must have length greater than or equal to 12');
  else if (!RX.memoryId.test(value) && !RX.memoryArn.test(value)) p.add(value, 'memoryId', `Member must satisfy regular expression pattern: ${PATTERNS.memoryId}`);
}

export const checkActorId = (p: Problems, v: unknown, path = 'actorId'): v is string => checkString(p, v, path, { min: 1, max: 255, pattern: 'actorId', required: true });
export const checkSessionId = (p: Problems, v: unknown, path = 'sessionId'): v is string => checkString(p, v, path, { min: 1, max: 100, pattern: 'sessionId', required: true });
export const checkEventId = (p: Problems, v: unknown, path = 'eventId'): v is string => checkString(p, v, path, { min: 1, pattern: 'eventId', required: true });

/** maxResults: 1-100 (reference §1.1); absent is fine. */
export function checkMaxResults(p: Problems, v: unknown): void {
  if (v === undefined) return;
  if (typeof v !== 'number' || !Number.isInteger(v)) p.add(v, 'maxResults', 'Member must be an integer');
  else if (v < 1) p.add(v, 'maxResults', 'Member must have value greater than or equal to 1');
  else if (v > 100) p.add(v, 'maxResults', 'Member must have value less than or equal to 100');
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** CreateEvent's payload: at most 100 items, each exactly one union member; texts 1-100,000. */
export function checkPayload(p: Problems, payload: unknown): void {
  if (payload === undefined || payload === null) return p.add(payload, 'payload', 'Member must not be null');
  if (!Array.isArray(payload)) return p.add(payload, 'payload', 'Member must be a list', true);
  if (payload.length > 100) p.add(payload, 'payload', 'Member must have length less than or equal to 100', true);
  payload.forEach((item: unknown, i) => {
    const at = `payload.${i + 1}.member`;
    const members = isObject(item) ? Object.keys(item).filter((k) => item[k] !== undefined && item[k] !== null) : [];
    if (!isObject(item) || members.length !== 1 || !['conversational', 'blob'].includes(members[0] as string)) {
      return p.add(item, at, 'Member must have exactly one of [conversational, blob] set', true);
    }
    const conv = item['conversational'];
    if (conv === undefined) return; // a blob: any document
    if (!isObject(conv)) return p.add(conv, `${at}.conversational`, 'Member must be a structure', true);
    const role = conv['role'];
    if (role === undefined || role === null) p.add(role, `${at}.conversational.role`, 'Member must not be null');
    else if (!(ROLES as readonly unknown[]).includes(role)) p.add(role, `${at}.conversational.role`, `Member must satisfy enum value set: [${ROLES.join(', ')}]`);
    const content = conv['content'];
    if (!isObject(content)) return p.add(content, `${at}.conversational.content`, 'Member must not be null');
    checkString(p, content['text'], `${at}.conversational.content.text`, { min: 1, max: 100_000, required: true, sensitive: true });
  });
}

/** Event metadata: at most 15 entries; keys 1-128, values 0-256, both from the metadata pattern. */
export function checkMetadata(p: Problems, metadata: unknown): void {
  if (metadata === undefined || metadata === null) return;
  if (!isObject(metadata)) return p.add(metadata, 'metadata', 'Member must be a map');
  const keys = Object.keys(metadata);
  if (keys.length > 15) p.add(metadata, 'metadata', 'Member must have length less than or equal to 15');
  for (const key of keys) {
    const n = codePoints(key);
    if (n < 1 || n > 128 || !RX.metadata.test(key)) {
      p.add(metadata, 'metadata', `Map keys must satisfy constraint: [Member must have length between 1 and 128, Member must satisfy regular expression pattern: ${PATTERNS.metadata}]`);
    }
    const value = metadata[key];
    if (!isObject(value) || Object.keys(value).length !== 1 || !('stringValue' in value)) {
      p.add(value, `metadata.${key}`, 'Member must have exactly one of [stringValue] set');
      continue;
    }
    checkString(p, value['stringValue'], `metadata.${key}.stringValue`, { max: 256, pattern: 'metadata', required: true });
  }
}

/** A branch: a name of 1-100 from the branch pattern, an optional root event id. */
export function checkBranch(p: Problems, branch: unknown): void {
  if (branch === undefined || branch === null) return;
  if (!isObject(branch)) return p.add(branch, 'branch', 'Member must be a structure');
  checkString(p, branch['name'], 'branch.name', { min: 1, max: 100, pattern: 'branchName', required: true });
  checkString(p, branch['rootEventId'], 'branch.rootEventId', { min: 1, pattern: 'eventId' });
}
