/**
 * One conversion row: `JSON.parse(text)` + `convert` + `JSON.stringify(value)` against the floor
 * `JSON.parse(text)` + `JSON.stringify(parsed)` of the same source text (DESIGN.md "Performance").
 * The conversion runs once first: if it throws, the row carries the error and is not timed.
 */
import { convert } from '../../src/index.js';
import type { Row } from './report.js';
import { compare, sink, type Timing } from './timing.js';

export interface ConvertCase {
  setting: string;
  from: string;
  to: string;
  text: string;
  kind?: 'request' | 'response';
  preserve?: boolean;
}

/** The timed operation of a case: parse, convert, write. */
export function convertOp(c: ConvertCase): () => void {
  const options = { from: c.from, to: c.to, kind: c.kind ?? 'request', preserve: c.preserve === true } as const;
  return () => {
    sink.n += JSON.stringify(convert(JSON.parse(c.text), options).value).length;
  };
}

export function convertRow(c: ConvertCase, timing: Timing): Row {
  const row: Row = { setting: c.setting, from: c.from, to: c.to };
  const op = convertOp(c);
  try {
    op();
  } catch (err) {
    row.error = (err as Error).message.replace(/\s+/g, ' ').slice(0, 160);
    return row;
  }
  const floor = (): void => {
    sink.n += JSON.stringify(JSON.parse(c.text)).length;
  };
  const r = compare(floor, op, timing);
  row.ratio = r.ratio;
  row.floorMs = r.floorMs;
  row.opMs = r.opMs;
  return row;
}
