/**
 * What the service or the SDK refuses, as our errors: a ValidationException (or HTTP 413) becomes a
 * ValidationError whose issues name the field in our terms (`events[2].payload[0].conversational
 * .content.text` for CreateEvent's `payload.1.member.conversational.content.text`), anything else a
 * UsageError that names the memory and the operation. Never a raw SDK error and its stack; the SDK
 * error stays reachable as `cause`.
 */
import { InterlinguaError, UsageError, ValidationError, type Issue } from '../../model/errors.js';
import type { Path } from '../../model/loss.js';

interface SdkError {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  $metadata?: { httpStatusCode?: unknown };
  fieldList?: { name?: unknown; message?: unknown }[];
}

export interface ErrorContext {
  /** The store as named in messages, e.g. agentcore://mem-abcdefghij. */
  store: string;
  op: string;
  /** For CreateEvent: the index of the event in the appended batch. */
  event?: number;
}

/** Members that are labels or list options: named as such, not under the event. */
const TOP_LEVEL = new Set(['memoryId', 'actorId', 'sessionId', 'eventId', 'maxResults', 'nextToken']);

/** `payload.2.member.conversational.content.text` -> our path (Coral counts list items from 1). */
export function pathOf(servicePath: string, ctx: ErrorContext): Path {
  const parts = servicePath.split('.').filter((p) => p !== 'member' && p !== '');
  const path: Path = [];
  for (const [i, p] of parts.entries()) path.push(/^\d+$/.test(p) && i > 0 ? Number(p) - 1 : p);
  if (ctx.event === undefined || TOP_LEVEL.has(String(parts[0]))) return path;
  return ['events', ctx.event, ...path];
}

function validationIssues(e: SdkError, ctx: ErrorContext): Issue[] {
  const message = typeof e.message === 'string' ? e.message : 'the request is invalid';
  const issues: Issue[] = [];
  for (const f of e.fieldList ?? []) {
    if (typeof f.name === 'string') issues.push({ code: 'agentcore_validation', path: pathOf(f.name, ctx), message: `AgentCore refused it: ${String(f.message ?? message)}` });
  }
  if (issues.length > 0) return issues;
  // Coral's form: `N validation errors detected: Value 'v' at 'path' failed to satisfy constraint: C; ...`
  const body = message.replace(/^\d+ validation errors? detected: /, '');
  for (const part of body.split(/; (?=Value )/)) {
    const m = /^Value .*? at '([^']+)' failed to satisfy constraint: (.*)$/s.exec(part);
    if (m) issues.push({ code: 'agentcore_validation', path: pathOf(m[1] as string, ctx), message: `AgentCore refused it: ${m[2] as string}` });
  }
  if (issues.length > 0) return issues;
  return [{ code: 'agentcore_validation', path: ctx.event === undefined ? [] : ['events', ctx.event], message: `AgentCore refused it: ${message}` }];
}

const AUTH = new Set([
  'AccessDeniedException', 'UnrecognizedClientException', 'InvalidSignatureException', 'ExpiredTokenException',
  'MissingAuthenticationTokenException', 'UnauthorizedException', 'IncompleteSignatureException',
]);
const NETWORK = new Set(['ECONNREFUSED', 'ENOTFOUND', 'ECONNRESET', 'ETIMEDOUT', 'EAI_AGAIN', 'EHOSTUNREACH']);

function withCause<E extends Error>(error: E, cause: unknown): E {
  Object.defineProperty(error, 'cause', { value: cause, enumerable: false });
  return error;
}

export function isNotFound(err: unknown): boolean {
  return (err as SdkError | null)?.name === 'ResourceNotFoundException';
}

export function isValidation(err: unknown): boolean {
  return (err as SdkError | null)?.name === 'ValidationException';
}

/** The error to throw for `err`, raised by the SDK while doing `ctx.op`. */
export function serviceError(err: unknown, ctx: ErrorContext): Error {
  if (err instanceof InterlinguaError) return err;
  const e = (typeof err === 'object' && err !== null ? err : { message: String(err) }) as SdkError;
  const name = typeof e.name === 'string' ? e.name : 'Error';
  const message = typeof e.message === 'string' ? e.message : String(err);
  const status = e.$metadata?.httpStatusCode;
  const at = `${ctx.store}: ${ctx.op}`;
  if (name === 'ValidationException') return withCause(new ValidationError(validationIssues(e, ctx)), err);
  if (status === 413) {
    const path = ctx.event === undefined ? [] : ['events', ctx.event];
    return withCause(new ValidationError([{ code: 'agentcore_too_large', path, message: 'the request is larger than AgentCore takes (HTTP 413 Request Entity Too Large)' }]), err);
  }
  if (name === 'ResourceNotFoundException') return withCause(new UsageError(`${at}: not found: ${message}`), err);
  if (AUTH.has(name)) return withCause(new UsageError(`${at}: refused by AWS (${name}: ${message}); check the credentials and that they allow bedrock-agentcore:${ctx.op}`), err);
  if (name === 'CredentialsProviderError') return withCause(new UsageError(`${at}: no AWS credentials found (${message}); set them as the AWS SDK reads them (environment, profile, role)`), err);
  if (/region is missing/i.test(message)) return withCause(new UsageError(`${at}: no AWS region; add ?region=... to the store URL or set AWS_REGION`), err);
  if (typeof e.code === 'string' && NETWORK.has(e.code)) return withCause(new UsageError(`${at}: cannot reach AgentCore (${e.code}: ${message})`), err);
  return withCause(new UsageError(`${at} failed: ${name}: ${message}`), err);
}
