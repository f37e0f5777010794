/**
 * `detect(input)`: which dialect and kind a body or stream capture is. Structural cues rank the
 * candidates first (cheap); then each ranked candidate is confirmed by its own codec (decode for
 * a body, the stream decoder over every event for a capture). Only what a codec accepts is called
 * a match; when several accept the same input (a minimal chat body is both an OpenAI Chat and an
 * Anthropic request), all are listed with their share of the confidence. When none accepts it, the
 * closest candidate is named with its first validation issues.
 */
import { InterlinguaError, ValidationError, type Issue } from '../model/errors.js';
import type { FormatId } from '../model/format-id.js';
import type { WireEvent } from '../model/stream-event.js';
import { DEFAULT_LIMITS } from '../formats/codec.js';
import { getCodec } from '../formats/registry.js';
import { LossList } from '../formats/shared/loss-list.js';
import { eventsForFraming, readCapture, type Layout } from './capture.js';
import { bodyCues, streamCues, type BodyKind, type Scored } from './cues.js';

/** What a body is: a request, a response, a stream capture, or AgentCore Memory events. */
export type DetectedKind = 'request' | 'response' | 'stream' | 'events';

export interface Candidate {
  format: FormatId;
  kind: DetectedKind;
  /** 0..1: this candidate's share among the candidates its codec accepted (0 when it did not). */
  confidence: number;
  /** Whether the dialect's codec accepted the input. */
  valid: boolean;
  /** The structural cues that pointed here. */
  cues: string[];
  /** The codec's first validation issues (invalid candidates only). */
  issues: Issue[];
}

export interface Detection {
  layout: Layout;
  /** The best match, or undefined when no dialect accepts the input. */
  best: Candidate | undefined;
  /** Every accepted candidate, best first; more than one means the input fits several dialects. */
  candidates: Candidate[];
  /** When nothing accepts it: the candidate that came closest, with its issues (undefined when no cue pointed anywhere). */
  closest: Candidate | undefined;
  /** True when a runner-up is nearly as likely as the best (the caller should say both). */
  ambiguous: boolean;
  /** The parsed input: the JSON body, or the wire events of a stream capture. */
  body?: unknown;
  events?: WireEvent[];
}

const FIRST_ISSUES = 5;
/** A runner-up with at least this share of the confidence is reported as a real alternative. */
const AMBIGUOUS_SHARE = 0.3;

/** The codec kind a detected kind decodes with (AgentCore events are the memory codec's request). */
export function codecKind(kind: DetectedKind): 'request' | 'response' | 'stream' {
  return kind === 'events' ? 'request' : kind;
}

function issuesOf(err: unknown): Issue[] {
  if (err instanceof InterlinguaError && err.issues.length > 0) return err.issues.slice(0, FIRST_ISSUES);
  const message = err instanceof Error ? err.message : String(err);
  return [{ code: err instanceof InterlinguaError ? err.code : 'rejected', path: [], message }];
}

/** Runs the codec; returns [] when it accepts the input, else its first issues. */
function validate(format: FormatId, kind: BodyKind, input: { body?: unknown; events?: WireEvent[] }): Issue[] {
  const codec = getCodec(format);
  const ctx = { limits: DEFAULT_LIMITS, losses: new LossList() };
  try {
    if (kind === 'stream') {
      if (!codec.stream) return [{ code: 'unsupported', path: [], message: `${format} has no stream codec` }];
      const decoder = codec.stream.decoder(ctx);
      for (const e of eventsForFraming(codec.stream.framing, input.events ?? [])) decoder.push(e);
      decoder.end();
      return [];
    }
    const kc = kind === 'request' ? codec.request : codec.response;
    if (!kc) return [{ code: 'unsupported', path: [], message: `${format} has no ${kind} codec` }];
    kc.decode(input.body, ctx);
    return [];
  } catch (err) {
    if (err instanceof ValidationError || err instanceof InterlinguaError) return issuesOf(err);
    return issuesOf(err);
  }
}

const toKind = (s: Scored): DetectedKind => (s.format === 'agentcore-memory' && s.kind === 'request' ? 'events' : s.kind);

/**
 * Names the dialect and kind of `input`: a parsed JSON value, or raw text / bytes (JSON, SSE,
 * JSON lines, AWS event-stream). Throws a ValidationError only when the input cannot be read at
 * all (not JSON, SSE, JSON lines or event-stream).
 */
export function detect(input: unknown): Detection {
  const capture = readCapture(input);
  const stream = capture.layout !== 'json';
  const payload = capture.layout === 'json' ? { body: capture.body } : { events: capture.events };
  // A lone JSON object may also be one stream chunk; cues for both, bodies first on ties.
  const ranked = stream ? streamCues(capture.events) : [...bodyCues(capture.body), ...streamCues([{ data: capture.body as never }]).map((s) => ({ ...s, score: Math.max(1, s.score - 3) }))];
  const asEvents = (s: Scored): { body?: unknown; events?: WireEvent[] } => (s.kind === 'stream' && !stream ? { events: [{ data: capture.layout === 'json' ? (capture.body as never) : null }] } : payload);

  const tried: Candidate[] = [];
  const check = (s: Scored): Candidate => {
    const issues = validate(s.format, s.kind, asEvents(s));
    const c: Candidate = { format: s.format, kind: toKind(s), confidence: 0, valid: issues.length === 0, cues: s.cues, issues };
    tried.push(c);
    return c;
  };
  // Only what a cue points at is validated: a body no cue recognises is not called any dialect's,
  // even when a lenient codec would accept it (most accept an almost empty object).
  const accepted = ranked.map(check).filter((c) => c.valid);
  const scoreOf = (c: Candidate): number => ranked.find((s) => s.format === c.format && toKind(s) === c.kind)?.score ?? 0;
  const total = accepted.reduce((n, c) => n + scoreOf(c), 0);
  for (const c of accepted) c.confidence = Math.round((scoreOf(c) / total) * 100) / 100;
  accepted.sort((a, b) => b.confidence - a.confidence);
  const best = accepted[0];
  const runnerUp = accepted[1];
  const closest = best === undefined ? closestOf(tried, scoreOf) : undefined;
  return {
    layout: capture.layout,
    best,
    candidates: accepted,
    closest,
    ambiguous: runnerUp !== undefined && runnerUp.confidence >= AMBIGUOUS_SHARE,
    ...payload,
  };
}

/** The rejected candidate with the strongest cues, then the fewest issues. */
function closestOf(tried: Candidate[], scoreOf: (c: Candidate) => number): Candidate | undefined {
  return [...tried].filter((c) => c.issues[0]?.code !== 'unsupported').sort((a, b) => scoreOf(b) - scoreOf(a) || a.issues.length - b.issues.length)[0];
}

/** The first validation issues of `input` read as `format`'s `kind` ([] when its codec accepts it). */
export function issuesAs(format: FormatId, kind: DetectedKind, input: unknown): Issue[] {
  const capture = readCapture(input);
  const k = codecKind(kind);
  if (capture.layout === 'json') return validate(format, k, k === 'stream' ? { events: [{ data: capture.body as never }] } : { body: capture.body });
  return k === 'stream' ? validate(format, k, { events: capture.events }) : [{ code: 'not_a_body', path: [], message: `this is a ${capture.layout} stream capture, not one ${kind} body` }];
}

/** `openai-chat request (0.67), or anthropic-messages request (0.33)` — for messages and the CLI. */
export function describeDetection(d: Detection): string {
  if (d.best === undefined) {
    const c = d.closest;
    return c === undefined ? 'no dialect fits' : `no dialect fits; closest is ${c.format} ${c.kind}`;
  }
  const shown = d.ambiguous ? d.candidates.filter((c) => c.confidence >= AMBIGUOUS_SHARE) : [d.best];
  return shown.map((c) => `${c.format} ${c.kind} (${c.confidence.toFixed(2)})`).join(', or ');
}
