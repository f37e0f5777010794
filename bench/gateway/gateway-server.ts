/**
 * The interlingua gateway (startGateway) on 127.0.0.1 with the configuration given as JSON in
 * argv[2]; run as its own process by bench/gateway.bench.ts. Prints `listening on <url>`.
 */
import { parseConfig } from '../../src/gateway/config.js';
import { startGateway } from '../../src/gateway/server.js';

const config = parseConfig(JSON.parse(process.argv[2] ?? '{}'));
const running = await startGateway(config, { port: 0, host: '127.0.0.1' });
process.stdout.write(`listening on ${running.url}\n`);
process.on('SIGTERM', () => void running.close().then(() => process.exit(0)));
