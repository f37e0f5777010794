/**
 * Load and timing for the gateway bench. `load` runs autocannon for a fixed time and keeps every
 * response time itself (autocannon's own histogram rounds to whole milliseconds, too coarse for
 * sub-millisecond overheads). `firstByte` times, one request at a time on a kept-alive
 * connection, how long a streamed answer takes to deliver its first body byte.
 */
import http from 'node:http';
import autocannon from 'autocannon';

export interface Target {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface LoadResult {
  p50: number;
  p99: number;
  /** Every successful response's time (ms), sorted. */
  times: number[];
  rps: number;
  requests: number;
  failures: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

export async function load(target: Target, connections: number, seconds: number): Promise<LoadResult> {
  const times: number[] = [];
  const run = autocannon({ url: target.url, method: 'POST', headers: target.headers, body: target.body, connections, duration: seconds, pipelining: 1 });
  run.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (status >= 200 && status < 300) times.push(ms);
  });
  const result = await run;
  times.sort((a, b) => a - b);
  return {
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    times,
    rps: result.requests.total / (result.duration || seconds),
    requests: result.requests.total,
    failures: result.errors + result.timeouts + result.non2xx,
  };
}

/** First-body-byte times (ms) of `count` sequential requests, sorted. */
export async function firstByte(target: Target, count: number): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(target.url);
  const times: number[] = [];
  try {
    for (let i = 0; i < count; i++) times.push(await oneFirstByte(agent, url, target));
  } finally {
    agent.destroy();
  }
  return times.sort((a, b) => a - b);
}

function oneFirstByte(agent: http.Agent, url: URL, target: Target): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = Buffer.from(target.body);
    const req = http.request(url, { method: 'POST', agent, headers: { ...target.headers, 'content-length': String(body.length) } }, (res) => {
      let first: number | undefined;
      res.on('data', () => {
        first ??= performance.now() - t0;
      });
      res.on('end', () => (res.statusCode === 200 && first !== undefined ? resolve(first) : reject(new Error(`status ${res.statusCode} from ${target.url}`))));
      res.on('error', reject);
    });
    req.on('error', reject);
    const t0 = performance.now();
    req.end(body);
  });
}
