/**
 * Wire events whose JSON text the stream encoder wrote along with the data. A text delta of a
 * verbose dialect (an A2A status update, a Responses delta event, a Chat chunk) is mostly the same
 * ids and type names on every event: JSON.stringify of the whole object costs 1-2.5 µs, writing the
 * text from a template cut once per block costs ~0.1 µs (bench/stream.bench.ts: the target's
 * serialization is most of a transcode). Writers (sse.ts, event-stream-write.ts, JSON lines) take
 * the text when there is one; the event is still a plain-looking `{ event?, data }` to everyone else.
 */
import type { JsonValue } from '../../model/json.js';
import type { WireEvent } from '../../model/stream-event.js';

/** A wire event with its data's JSON text; the text is private, so equality and spreads see only `event` and `data`. */
export class WrittenEvent implements WireEvent {
  declare event?: string;
  declare data: JsonValue;
  readonly #data: JsonValue;
  readonly #text: string;

  /** `text` must be JSON.stringify(data) (templates below make it so by construction). */
  constructor(data: JsonValue, text: string, event?: string) {
    if (event !== undefined) this.event = event;
    this.data = data;
    this.#data = data;
    this.#text = text;
  }

  /** The written text, while `data` is still the object it was written from (one replaced since is serialized afresh). */
  static textOf(e: WireEvent): string | undefined {
    return e instanceof WrittenEvent && e.data === e.#data ? e.#text : undefined;
  }
}

/** JSON.stringify(e.data), from the encoder's text when it wrote one. */
export function dataText(e: WireEvent): string | undefined {
  return WrittenEvent.textOf(e) ?? (JSON.stringify(e.data) as string | undefined);
}

/** Characters JSON.stringify writes otherwise than themselves in a string: quote, backslash, controls, surrogates (a lone one is escaped). */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * JSON.stringify(s) for a string, without the serializer's set-up for the common delta that needs
 * no escape (~2x faster on short text): such a string is written between quotes as it is.
 */
export function jsonString(s: string): string {
  return ESCAPED.test(s) ? JSON.stringify(s) : `"${s}"`;
}

/** Hole sentinels (NUL and a private-use character): a wire key or value equal to one makes `of` refuse the template. */
const HOLES = ['\u0000\ue000hole0', '\u0000\ue000hole1', '\u0000\ue000hole2'] as const;

/**
 * The JSON text of `make(...holes)` cut at each hole: `fill` of the JSON texts of values v gives
 * exactly JSON.stringify(make(...v)), as JSON.stringify writes a value the same wherever it sits.
 * `make` must put each hole once, as a value, and not look at it otherwise. Undefined when it did not.
 */
export class Template {
  private constructor(private readonly parts: string[]) {}

  static of(holes: number, make: (...holes: string[]) => JsonValue, on: boolean | undefined): Template | undefined {
    // Off unless the caller writes each event as it comes (StreamEncodeContext.eventText).
    if (on !== true) return undefined;
    const text = JSON.stringify(make(...HOLES.slice(0, holes)));
    const parts: string[] = [];
    let from = 0;
    for (let i = 0; i < holes; i++) {
      const hole = JSON.stringify(HOLES[i]);
      const at = text.indexOf(hole);
      if (at < from || text.indexOf(hole, at + hole.length) >= 0) return undefined;
      parts.push(text.slice(from, at));
      from = at + hole.length;
    }
    parts.push(text.slice(from));
    return new Template(parts);
  }

  /** The text with one hole filled by `a` (a JSON text). */
  fill1(a: string): string {
    return (this.parts[0] as string) + a + (this.parts[1] as string);
  }

  /** The text with two holes filled by `a` and `b` (JSON texts). */
  fill2(a: string, b: string): string {
    return (this.parts[0] as string) + a + (this.parts[1] as string) + b + (this.parts[2] as string);
  }
}
