/** A gateway on 127.0.0.1:0 in front of the replay upstream: model `to-<dialect>[-...]` routes to that dialect. */
import pino from 'pino';
import { parseConfig, type GatewayConfig } from '../../../src/gateway/config.js';
import { startGateway, type RunningGateway, type ServeOptions } from '../../../src/gateway/server.js';
import { DIALECTS, type Dialect } from './replay-upstream.js';

export const AWS_TEST_CREDENTIALS = { accessKeyId: 'AKIDGATEWAYTEST', secretAccessKey: 'gateway-test-secret' };
export const UPSTREAM_KEY = 'sk-upstream-secret-never-shown';

export function replayConfig(url: string, extra: Record<string, unknown> = {}): GatewayConfig {
  const upstreams: Record<string, unknown> = {};
  for (const d of DIALECTS) {
    upstreams[`up-${d}`] =
      d === 'bedrock-converse'
        ? { format: d, url, region: 'us-east-1', timeout_ms: 2000 }
        : { format: d, url: d.startsWith('openai') ? `${url}/v1` : url, apiKey: UPSTREAM_KEY, timeout_ms: 2000 };
  }
  return parseConfig({
    upstreams,
    routes: DIALECTS.map((d) => ({ model: `to-${d}*`, upstream: `up-${d}` })),
    ...extra,
  });
}

export function modelFor(d: Dialect): string {
  return `to-${d}-model`;
}

export async function startTestGateway(config: GatewayConfig, options: ServeOptions = {}): Promise<RunningGateway> {
  return startGateway(config, { port: 0, host: '127.0.0.1', awsCredentials: AWS_TEST_CREDENTIALS, logger: pino({ level: 'silent' }), drainTimeoutMs: 5000, ...options });
}
