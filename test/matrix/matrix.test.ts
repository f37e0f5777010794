/**
 * The any-to-any conformance matrix over every real capture in ../shared/fixtures: for every
 * registered dialect (formats(), so codecs registered later join by themselves), every body
 * converts to every other dialect of the same kind, the output passes the target's validator, and
 * A -> B -> A with `preserve` gives A back exactly. Failures are failures; only bodies that are
 * invalid on purpose are counted apart. A dialect not registered yet, or a target without a
 * validator yet, says so in the test names. `npm run matrix` prints the same figures as tables.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { hasSharedFixtures } from '../support/captures.js';
import { runMatrix, type Failure, type MatrixResult } from './run.js';
import { renderMatrix } from './table.js';

const shared = hasSharedFixtures();
const result: MatrixResult | undefined = shared ? await runMatrix() : undefined;

const line = (f: Failure): string => `${f.stage} ${f.sample}: ${f.detail.length > 400 ? `${f.detail.slice(0, 397)}...` : f.detail}`;

describe.skipIf(!shared)('conversion matrix (../shared/fixtures)', () => {
  if (!result) return;
  const { rows, cells, registered, validators } = result;

  it('finds captures for every registered dialect it knows', () => {
    for (const row of rows) if (row.supported) expect(row.samples, `${row.format} ${row.kind}`).toBeGreaterThan(0);
  });

  for (const row of rows) {
    const label = `${row.format} (${row.kind}s)`;
    if (!row.registered) {
      it.skip(`${label}: not registered`, () => undefined);
      continue;
    }
    if (!row.supported) continue;
    it(`${label}: every capture decodes (${row.valid.length} bodies; ${row.invalidRejected} known-invalid rejected, counted apart)`, () => {
      expect(row.decodeFailures.map(line)).toEqual([]);
    });
    for (const to of result.formats) {
      if (to === row.format) continue;
      if (!registered.has(to)) {
        it.skip(`${row.format} -> ${to} (${row.kind}): ${to} not registered`, () => undefined);
        continue;
      }
      const cell = cells.find((c) => c.kind === row.kind && c.from === row.format && c.to === to);
      if (!cell) continue;
      const v = validators.get(to);
      const checked = v?.status === 'ok' ? 'schema-valid' : `output not validated yet (${v?.reason ?? 'no validator'})`;
      it(`${row.format} -> ${to} (${row.kind}): ${cell.bodies} bodies convert, ${checked}, preserve round trip exact`, () => {
        expect(cell.failures.map(line)).toEqual([]);
        expect(cell.converted).toBe(cell.bodies);
        expect(cell.preserveExact).toBe(cell.bodies);
        if (cell.valid !== undefined) expect(cell.valid).toBe(cell.bodies);
      });
    }
  }

  afterAll(() => {
    const text = renderMatrix(result);
    console.log(text.slice(0, text.indexOf('## Loss codes')));
  });
});

describe.skipIf(shared)('conversion matrix', () => {
  it('is skipped: ../shared/fixtures is not present (set INTERLINGUA_SHARED_FIXTURES to run it)', () => {
    expect(shared).toBe(false);
  });
});
