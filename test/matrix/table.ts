/**
 * Renders a matrix result as Markdown: per kind, a from x to table of
 * converted / schema-valid / preserve-exact counts, the loss codes per pair, and every failing
 * pair with its smallest failing body.
 */
import type { Cell, Failure, MatrixResult, Row } from './run.js';
import { KINDS } from './run.js';

const esc = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function rowLabel(row: Row): string {
  if (!row.registered) return `**${row.format}** (not registered)`;
  if (!row.supported) return `**${row.format}**`;
  const extra: string[] = [];
  if (row.invalidRejected > 0) extra.push(`${row.invalidRejected} invalid skipped`);
  if (row.invalidAccepted.length > 0) extra.push(`${row.invalidAccepted.length} known-invalid accepted`);
  if (row.decodeFailures.length > 0) extra.push(`**${row.decodeFailures.length} rejected**`);
  return `**${row.format}** (${row.valid.length} bodies${extra.length > 0 ? `; ${extra.join('; ')}` : ''})`;
}

function cellText(result: MatrixResult, row: Row, to: string, cell: Cell | undefined): string {
  if (to === row.format) return '—';
  if (!row.registered || !result.registered.has(to)) return 'not registered';
  if (!row.supported) return `no ${row.kind}s`;
  if (!cell) return `no ${row.kind}s`;
  const valid = cell.valid === undefined ? 'not validated' : String(cell.valid);
  const mark = cell.failures.length > 0 ? ' ✗' : '';
  return `${cell.converted} / ${valid} / ${cell.preserveExact}${mark}`;
}

function kindTable(result: MatrixResult, kind: (typeof KINDS)[number]): string[] {
  const rows = result.rows.filter((r) => r.kind === kind);
  const out = [`| from \\ to | ${result.formats.join(' | ')} |`, `|---|${result.formats.map(() => '---').join('|')}|`];
  for (const row of rows) {
    const cells = result.formats.map((to) => cellText(result, row, to, result.cells.find((c) => c.kind === kind && c.from === row.format && c.to === to)));
    out.push(`| ${rowLabel(row)} | ${cells.join(' | ')} |`);
  }
  return out;
}

function lossTable(result: MatrixResult, kind: (typeof KINDS)[number]): string[] {
  const cells = result.cells.filter((c) => c.kind === kind);
  if (cells.length === 0) return ['(no pairs)'];
  const out = ['| from -> to | loss codes (code ×count) |', '|---|---|'];
  for (const c of cells) {
    const codes = Object.entries(c.lossCodes).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    out.push(`| ${c.from} -> ${c.to} | ${codes.length === 0 ? 'none' : codes.map(([k, n]) => `${k} ×${n}`).join(', ')} |`);
  }
  return out;
}

function smallest(list: Failure[]): Failure | undefined {
  return [...list].sort((a, b) => a.size - b.size)[0];
}

function failureLines(result: MatrixResult): string[] {
  const out: string[] = [];
  for (const row of result.rows) {
    if (row.decodeFailures.length > 0) {
      const f = smallest(row.decodeFailures) as Failure;
      out.push(`- **${row.format} (${row.kind})**: ${row.decodeFailures.length} bodies rejected by its own decoder; smallest \`${f.sample}\`: ${esc(f.detail)}`);
    }
    if (row.invalidAccepted.length > 0) {
      out.push(`- ${row.format} (${row.kind}): ${row.invalidAccepted.length} known-invalid bodies accepted by the decoder (so converted like the others): ${row.invalidAccepted.map((s) => `\`${esc(s)}\``).join(', ')}`);
    }
  }
  for (const c of result.cells) {
    if (c.failures.length === 0) continue;
    const stages = (['convert', 'validate', 'preserve'] as const).filter((s) => c.failures.some((f) => f.stage === s));
    const parts = stages.map((s) => {
      const list = c.failures.filter((f) => f.stage === s);
      const f = smallest(list) as Failure;
      return `${s} ×${list.length} (smallest \`${f.sample}\`: ${esc(f.detail.length > 300 ? `${f.detail.slice(0, 297)}...` : f.detail)})`;
    });
    out.push(`- **${c.from} -> ${c.to} (${c.kind})**: ${parts.join('; ')}`);
  }
  return out.length > 0 ? out : ['None.'];
}

function validatorLines(result: MatrixResult): string[] {
  return result.formats.map((f) => {
    const v = result.validators.get(f);
    if (!v) return `- ${f}: none`;
    return v.status === 'ok' ? `- ${f}: \`${v.file}\`` : `- ${f}: not validated yet (${v.reason})`;
  });
}

/** The whole report as Markdown (without the generated-file header). */
export function renderMatrix(result: MatrixResult): string {
  const out: string[] = [];
  out.push('Cells: **converted / schema-valid / preserve-exact** bodies (✗: at least one failure, listed below).');
  out.push("Schema-valid: the plain conversion (without preserve) passes the target's validator and its own decoder.");
  out.push('Row labels count the bodies of the source dialect that were converted; known-invalid bodies (error envelopes, requests the API refused, validation vectors) that its decoder rejects are counted apart, those it accepts are converted too.');
  out.push('');
  out.push('Validators of the target dialect:');
  out.push(...validatorLines(result));
  for (const kind of KINDS) {
    out.push('', `## ${kind === 'request' ? 'Requests' : 'Responses'}`, '');
    out.push(...kindTable(result, kind));
  }
  for (const kind of KINDS) {
    out.push('', `## Loss codes, ${kind}s (conversions without preserve)`, '');
    out.push(...lossTable(result, kind));
  }
  out.push('', '## Failures', '');
  out.push(...failureLines(result));
  return `${out.join('\n')}\n`;
}
