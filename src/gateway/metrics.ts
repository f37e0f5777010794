/**
 * Prometheus metrics on a registry of the gateway's own (two gateways in one process do not mix):
 * requests, errors, latency and losses, by client dialect, upstream dialect and upstream name.
 */
import { Counter, Histogram, Registry } from 'prom-client';

const PAIR = ['client', 'upstream_format', 'upstream'] as const;

export class GatewayMetrics {
  readonly registry = new Registry();
  readonly requests = new Counter({ name: 'interlingua_gateway_requests_total', help: 'Requests answered, by dialect pair, upstream, stream and status', labelNames: [...PAIR, 'stream', 'status'], registers: [this.registry] });
  readonly errors = new Counter({ name: 'interlingua_gateway_errors_total', help: 'Requests answered with an error (or a stream that ended with one), by dialect pair, upstream and status', labelNames: [...PAIR, 'status'], registers: [this.registry] });
  readonly latency = new Histogram({
    name: 'interlingua_gateway_request_duration_seconds',
    help: 'Time from request to the end of the answer (stream: its last byte)',
    labelNames: [...PAIR, 'stream'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [this.registry],
  });
  readonly firstByte = new Histogram({
    name: 'interlingua_gateway_upstream_headers_seconds',
    help: 'Time from request to the upstream answer headers',
    labelNames: [...PAIR],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly losses = new Counter({ name: 'interlingua_gateway_losses_total', help: 'Conversion losses, by dialect pair and upstream', labelNames: [...PAIR], registers: [this.registry] });

  // Label children by their values: prom-client hashes a label object on every call otherwise.
  private readonly children = new Map<string, { requests: Counter.Internal; latency: Histogram.Internal<string>; errors: Counter.Internal }>();
  private readonly headerChildren = new Map<string, Histogram.Internal<string>>();

  /** One answered request: counted, timed, and counted as an error from 400 up. */
  answered(pair: Pair, stream: boolean, status: number, seconds: number): void {
    const key = `${pair.client}\u0000${pair.upstream_format}\u0000${pair.upstream}\u0000${stream}\u0000${status}`;
    let c = this.children.get(key);
    if (c === undefined) {
      const s = String(status);
      const labels = { ...pair, stream: String(stream) };
      c = { requests: this.requests.labels({ ...labels, status: s }), latency: this.latency.labels(labels), errors: this.errors.labels({ ...pair, status: s }) };
      this.children.set(key, c);
    }
    c.requests.inc();
    c.latency.observe(seconds);
    if (status >= 400) c.errors.inc();
  }

  /** Time to the upstream's answer headers. */
  upstreamHeaders(pair: Pair, seconds: number): void {
    const key = `${pair.client}\u0000${pair.upstream_format}\u0000${pair.upstream}`;
    let h = this.headerChildren.get(key);
    if (h === undefined) {
      h = this.firstByte.labels({ ...pair });
      this.headerChildren.set(key, h);
    }
    h.observe(seconds);
  }

  async text(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}

export interface Pair {
  client: string;
  upstream_format: string;
  upstream: string;
}
