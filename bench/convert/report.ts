/**
 * Printing bench rows: a compact matrix per setting (rows: from, columns: to, cells: ratio to the
 * floor) and the one-line summary `worst: <pair> <setting> <ratio>x; pairs over <aim>x: N of M`.
 */

export interface Row {
  /** The setting the row belongs to, e.g. `request 200 msgs, small images`. */
  setting: string;
  from: string;
  to: string;
  ratio?: number;
  floorMs?: number;
  opMs?: number;
  /** The conversion threw: its message (the row is not timed). */
  error?: string;
}

/** Short column names: the matrices stay narrow. */
const SHORT: Record<string, string> = {
  'anthropic-messages': 'anthropic',
  'openai-chat': 'chat',
  'openai-responses': 'responses',
  'bedrock-converse': 'bedrock',
  gemini: 'gemini',
  'agent-input': 'agent-input',
  'ag-ui': 'ag-ui',
  a2a: 'a2a',
  'agentcore-memory': 'agentcore',
};
export const short = (d: string): string => SHORT[d] ?? d;

export function printMatrix(title: string, rows: readonly Row[]): void {
  const table: Record<string, Record<string, number | string>> = {};
  const columns = [...new Set(rows.map((r) => short(r.to)))];
  for (const r of rows) {
    const line = (table[short(r.from)] ??= Object.fromEntries(columns.map((c) => [c, '—'])));
    line[short(r.to)] = r.error !== undefined ? 'ERR' : Number((r.ratio ?? NaN).toFixed(2));
  }
  console.log(`\n${title}`);
  console.table(table);
  for (const r of rows) if (r.error !== undefined) console.log(`  ERR ${r.from} -> ${r.to} (${r.setting}): ${r.error}`);
}

/** `worst: <pair> <setting> <ratio>x; pairs over <aim>x: N of M` (rows with errors count as over). */
export function summary(rows: readonly Row[], aim: number, label = 'pairs'): string {
  const timed = rows.filter((r) => r.ratio !== undefined);
  const worst = timed.reduce<Row | undefined>((w, r) => (w === undefined || (r.ratio as number) > (w.ratio as number) ? r : w), undefined);
  const over = rows.filter((r) => r.error !== undefined || (r.ratio as number) > aim).length;
  const errors = rows.filter((r) => r.error !== undefined).length;
  const w = worst === undefined ? 'none' : `${short(worst.from)} -> ${short(worst.to)} ${worst.setting} ${(worst.ratio as number).toFixed(2)}x`;
  return `worst: ${w}; ${label} over ${aim}x: ${over} of ${rows.length}${errors > 0 ? ` (${errors} threw)` : ''}`;
}

export function errorText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').slice(0, 160);
}
