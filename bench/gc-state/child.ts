/**
 * One gc-state measurement (bench/gc-state.bench.ts): argv pair ("from:to") and history ("fresh" or
 * "after-large"). Prints one JSON line: CPU µs per 20-message conversion, major GCs and scavenge
 * time during the timed batches.
 */
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { convert } from '../../src/index.js';
import { requestBodies } from '../convert/bodies.js';

const [pair = 'anthropic-messages:bedrock-converse', history = 'fresh'] = process.argv.slice(2);
const [from = '', to = ''] = pair.split(':');
const small = requestBodies(20, 'none', [from]).text.get(from);
if (small === undefined) throw new Error(`no ${from} body`);
const text = small;
let sink = 0;
const once = (body: string): void => {
  sink += JSON.stringify(convert(JSON.parse(body), { from, to }).value).length;
};

if (history === 'after-large') {
  const large = requestBodies(2000, 'none', [from]).text.get(from) as string;
  for (let i = 0; i < 6; i++) once(large);
}
for (let i = 0; i < 1500; i++) once(text); // warm-up: compiled code, settled heap

let majorGcs = 0;
let scavengeMs = 0;
const observer = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) majorGcs++;
    else if (kind === constants.NODE_PERFORMANCE_GC_MINOR) scavengeMs += e.duration;
  }
});
observer.observe({ entryTypes: ['gc'] });
const batches: number[] = [];
for (let b = 0; b < 5; b++) {
  const start = process.cpuUsage();
  for (let i = 0; i < 400; i++) once(text);
  const used = process.cpuUsage(start);
  batches.push((used.user + used.system) / 400);
}
// GC entries are delivered asynchronously: let them arrive before reporting.
setTimeout(() => {
  observer.disconnect();
  batches.sort((a, b) => a - b);
  console.log(JSON.stringify({ us: batches[2], majorGcs, scavengeMs, sink: sink > 0 }));
}, 50);
