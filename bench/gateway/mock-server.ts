/**
 * The mock upstream (src/gateway/mock-upstream.ts) served over HTTP/1.1 on 127.0.0.1, answering
 * at once; run as its own process by bench/gateway.bench.ts. Prints `listening on <url>`.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createMockUpstream } from '../../src/gateway/mock-upstream.js';

const server = serve({ fetch: createMockUpstream(), port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
  process.stdout.write(`listening on http://127.0.0.1:${info.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
