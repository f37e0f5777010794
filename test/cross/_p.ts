import { convert, decode } from '../../src/index.js';
import { samples, type Dialect } from './corpus.js';
import { uncovered, show, withoutHints, mergeTurns } from './diff.js';
const [from, to, kind, filter] = process.argv.slice(2) as [Dialect, Dialect, 'request'|'response', string|undefined];
const agg = new Map<string, number>();
for (const s of samples(from, kind)) {
  if (filter && !s.name.includes(filter)) continue;
  try {
    const there = convert(s.body, { from, to, kind });
    const back = convert(there.value, { from: to, to: from, kind });
    const cn = (b: unknown) => { const c = withoutHints(decode(b, { from, kind }).value); return from === 'anthropic-messages' ? mergeTurns(c) : c; }; const m = uncovered(cn(s.body), cn(back.value), there.losses);
    for (const d of m) { const k = d.path.map(p => typeof p === 'number' ? '#' : p).join('.'); agg.set(k, (agg.get(k) ?? 0) + 1); }
    if (m.length && filter) { console.log("==", s.name); console.log(show(m)); console.log('losses', JSON.stringify(there.losses.map(l => [l.code, l.path.join('.')]))); }
  } catch (e) { console.log('THROW', s.name, (e as Error).message.slice(0, 300)); }
}
console.log([...agg].sort((a, b) => b[1] - a[1]).slice(0, 40));
