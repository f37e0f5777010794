/**
 * `interlingua detect [FILE]` and `convert --from auto`: which dialect and kind the input is.
 * detect prints the finding as JSON; convert says on standard error what it chose. Input that
 * fits no dialect exits 2 naming the closest dialect and its first validation issues.
 */
import { UsageError } from '../model/errors.js';
import { describeDetection, detect, type Candidate, type Detection } from '../detect/index.js';
import type { CliIo } from './io.js';
import { issueLine } from './render.js';

/** The input as bytes (event-stream captures are binary); text-only IOs give their text's bytes. */
export async function readInputBytes(io: CliIo, file: string | undefined): Promise<Uint8Array> {
  const path = file === undefined || file === '-' ? undefined : file;
  if (io.readBytes) {
    try {
      return await io.readBytes(path);
    } catch (err) {
      throw new UsageError(`cannot read ${path ?? 'standard input'}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  const text = path === undefined ? await io.readStdin() : await io.readFile(path).catch((err: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read ${path}: ${err.code ?? err.message}`);
  });
  return new TextEncoder().encode(text);
}

/** Prints why nothing fits: the closest dialect and its first issues, as `error:` lines. */
export function reportNoMatch(io: CliIo, d: Detection): void {
  const c = d.closest;
  if (c === undefined) {
    io.stderr(`error: (root): this ${d.layout === 'json' ? 'body' : `${d.layout} capture`} does not look like any dialect's request, response or stream\n`);
    return;
  }
  io.stderr(`error: no dialect accepts this input; the closest is ${c.format} ${c.kind}, which reports:\n`);
  for (const issue of c.issues) io.stderr(`${issueLine(issue)}\n`);
}

const summary = (c: Candidate): Record<string, unknown> => ({ format: c.format, kind: c.kind, confidence: c.confidence, cues: c.cues });

/** `detect [FILE]`: the finding as JSON on standard output; exit 2 when no dialect fits. */
export async function detectCommand(file: string | undefined, io: CliIo, compact: boolean): Promise<number> {
  const d = detect(await readInputBytes(io, file));
  const out = {
    format: d.best?.format ?? null,
    kind: d.best?.kind ?? null,
    confidence: d.best?.confidence ?? 0,
    layout: d.layout,
    ambiguous: d.ambiguous,
    candidates: d.candidates.map(summary),
    ...(d.closest ? { closest: { format: d.closest.format, kind: d.closest.kind, issues: d.closest.issues } } : {}),
  };
  io.stdout(`${compact ? JSON.stringify(out) : JSON.stringify(out, null, 2)}\n`);
  if (d.best === undefined) {
    reportNoMatch(io, d);
    return 2;
  }
  return 0;
}

/**
 * `convert --from auto`: the detected dialect (of `kind` when one was asked for), said on standard
 * error; undefined once the no-match error is printed.
 */
export function chooseSource(io: CliIo, d: Detection, kind: string | undefined): Candidate | undefined {
  const wanted = kind === undefined ? d.candidates : d.candidates.filter((c) => (kind === 'request' ? c.kind === 'request' || c.kind === 'events' : c.kind === kind));
  const chosen = wanted[0];
  if (chosen === undefined) {
    if (d.best !== undefined && kind !== undefined) {
      throw new UsageError(`--kind ${kind}: the input reads as ${describeDetection(d)}, not as a ${kind} (give --from to say what it is)`);
    }
    reportNoMatch(io, d);
    return undefined;
  }
  const also = d.ambiguous ? ` (it also fits ${describeDetection(d)}; give --from to choose)` : '';
  io.stderr(`detected: ${chosen.format} ${chosen.kind} (confidence ${chosen.confidence.toFixed(2)})${also}\n`);
  return chosen;
}
