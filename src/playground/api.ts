/**
 * What the playground page asks for, as plain functions over the public API (the same calls the
 * CLI makes): detect a pasted input, convert a body to every other dialect with its losses and a
 * round trip back, and transcode a stream capture step by step with its accumulated response.
 * Input arrives as text, or base64 for binary captures (AWS event-stream).
 */
import { convert } from '../formats/convert.js';
import { formats } from '../formats/registry.js';
import { getStreamCodec } from '../formats/registry.js';
import { InterlinguaError, LossError, ValidationError, type Issue } from '../model/errors.js';
import type { Loss, Path } from '../model/loss.js';
import type { WireEvent } from '../model/stream-event.js';
import { codecKind, detect, eventsForFraming, issuesAs, type Candidate, type DetectedKind, type Detection } from '../detect/index.js';
import { accumulateStream, Transcoder } from '../stream/transcode.js';
import { jsonDiff } from './diff.js';

export interface PlaygroundInput {
  /** The pasted or dropped text, or base64 of a binary file when `base64` is true. */
  input: string;
  base64?: boolean;
}

export function inputOf(p: PlaygroundInput): string | Uint8Array {
  if (typeof p.input !== 'string') throw new ValidationError([{ code: 'invalid_type', path: ['input'], message: 'input must be a string (text, or base64 with base64: true)' }]);
  return p.base64 === true ? new Uint8Array(Buffer.from(p.input, 'base64')) : p.input;
}

const candidateView = (c: Candidate): { format: string; kind: DetectedKind; confidence: number; cues: string[] } => ({ format: c.format, kind: c.kind, confidence: c.confidence, cues: c.cues });

export function detectView(d: Detection): Record<string, unknown> {
  return {
    layout: d.layout,
    best: d.best ? candidateView(d.best) : null,
    candidates: d.candidates.map(candidateView),
    ambiguous: d.ambiguous,
    closest: d.closest ? { ...candidateView(d.closest), issues: d.closest.issues } : null,
  };
}

export interface TargetView {
  format: string;
  value?: unknown;
  losses: Loss[];
  /** Why there is no value: strict refused a lossy result, or the target has no such kind. */
  error?: { message: string; losses?: Loss[] };
  roundTrip?: { exact: boolean; differences: Path[]; back?: unknown; error?: string };
}

export interface ConvertRequest extends PlaygroundInput {
  /** The source dialect and kind; detected when absent. */
  from?: string;
  kind?: DetectedKind;
  preserve?: boolean;
  strict?: boolean;
}

/** Which formats hold a kind. */
function formatsWith(kind: 'request' | 'response' | 'stream'): string[] {
  return formats()
    .filter((f) => f.kinds.includes(kind))
    .map((f) => f.id);
}

function errorIssues(err: unknown): Issue[] {
  if (err instanceof InterlinguaError && err.issues.length > 0) return err.issues;
  return [{ code: 'error', path: [], message: err instanceof Error ? err.message : String(err) }];
}

/** Source dialect and kind: the caller's choice, else the detection's best. */
function chooseSource(req: ConvertRequest, d: Detection): { format: string; kind: DetectedKind } | undefined {
  if (req.from !== undefined) return { format: req.from, kind: req.kind ?? d.candidates.find((c) => c.format === req.from)?.kind ?? d.best?.kind ?? 'request' };
  return d.best ? { format: d.best.format, kind: d.best.kind } : undefined;
}

/**
 * The whole page's view of one input: detection, and for a body every other dialect's
 * conversion with losses and round trip; for a stream, the list of targets (see `transcodeView`).
 * A source that its codec refuses answers `issues` (with their paths) instead of targets.
 */
export function convertView(req: ConvertRequest): Record<string, unknown> {
  const raw = inputOf(req);
  const d = detect(raw);
  const source = chooseSource(req, d);
  const base = { detection: detectView(d), source: source ?? null };
  if (source === undefined) return { ...base, issues: d.closest?.issues ?? [{ code: 'unrecognised', path: [], message: "this does not look like any dialect's request, response or stream" }] };
  const issues = issuesAs(source.format as Candidate['format'], source.kind, raw);
  if (issues.length > 0) return { ...base, issues };
  const kind = codecKind(source.kind);
  if (kind === 'stream') return { ...base, targets: formatsWith('stream').filter((f) => f !== source.format) };
  const body = d.body;
  const targets: TargetView[] = formatsWith(kind)
    .filter((f) => f !== source.format)
    .map((to) => convertTo(body, source.format, to, kind, req));
  return { ...base, targets };
}

function convertTo(body: unknown, from: string, to: string, kind: 'request' | 'response', req: ConvertRequest): TargetView {
  const options = { from, to, kind, preserve: req.preserve === true };
  let out: { value: unknown; losses: Loss[] };
  try {
    out = convert(body, { ...options, strict: req.strict === true });
  } catch (err) {
    if (err instanceof LossError) return { format: to, losses: err.losses, error: { message: `strict: ${err.message}`, losses: err.losses } };
    return { format: to, losses: [], error: { message: errorIssues(err).map((i) => i.message).join('; ') } };
  }
  const view: TargetView = { format: to, value: out.value, losses: out.losses };
  try {
    const back = convert(out.value, { from: to, to: from, kind, preserve: req.preserve === true });
    const differences = jsonDiff(body, back.value);
    view.roundTrip = { exact: differences.length === 0, differences, back: back.value };
  } catch (err) {
    view.roundTrip = { exact: false, differences: [], error: errorIssues(err).map((i) => i.message).join('; ') };
  }
  return view;
}

export interface TranscodeRequest extends PlaygroundInput {
  from?: string;
  to: string;
  preserve?: boolean;
}

/** One step: a source wire event and the target wire events it produced (the last step flushes). */
interface Step {
  source: WireEvent | null;
  target: WireEvent[];
  losses: Loss[];
}

/** A stream capture converted event by event, plus the accumulated final response in the target. */
export function transcodeView(req: TranscodeRequest): Record<string, unknown> {
  const raw = inputOf(req);
  const d = detect(raw);
  const from = req.from ?? (d.best?.kind === 'stream' ? d.best.format : undefined);
  if (from === undefined || d.events === undefined) {
    return { detection: detectView(d), issues: d.closest?.issues ?? [{ code: 'not_a_stream', path: [], message: 'this is not a stream capture' }] };
  }
  const events = eventsForFraming(getStreamCodec(from).framing, d.events);
  const t = new Transcoder({ from, to: req.to });
  const steps: Step[] = [];
  let seen = 0;
  const take = (source: WireEvent | null, target: WireEvent[]): void => {
    steps.push({ source, target, losses: t.losses.slice(seen) });
    seen = t.losses.length;
  };
  try {
    for (const e of events) take(e, t.push(e));
    take(null, t.end());
  } catch (err) {
    return { detection: detectView(d), from, to: req.to, steps, issues: errorIssues(err) };
  }
  const acc = accumulateStream(events, { from, to: req.to, preserve: req.preserve === true });
  return {
    detection: detectView(d),
    from,
    to: req.to,
    steps,
    accumulated: { value: acc.value, complete: acc.complete, losses: acc.losses, ...(acc.error ? { error: acc.error } : {}) },
  };
}
