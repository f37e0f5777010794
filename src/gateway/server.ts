/**
 * The gateway on Node: HTTP/1.1 and cleartext HTTP/2 (h2c, what the AWS SDK's default Bedrock
 * Runtime handler speaks to an http:// endpoint) on one port. A connection's first bytes decide:
 * the HTTP/2 connection preface goes to the HTTP/2 server, anything else to the HTTP/1.1 one.
 * `close()` stops accepting, lets in-flight requests and streams finish, then closes the gateway.
 */
import { createServer as createHttp1Server, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttp2Server, type Http2ServerRequest, type Http2ServerResponse, type Http2Session } from 'node:http2';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { createGateway, type Gateway, type GatewayOptions } from './app.js';
import { isLoopback } from './auth.js';
import type { GatewayConfig } from './config.js';
import { ConfigError } from './config.js';

export interface ServeOptions extends GatewayOptions {
  port?: number;
  host?: string;
  /** How long close() waits for in-flight requests before cutting them (ms); default 30 s. */
  drainTimeoutMs?: number;
}

export interface RunningGateway {
  url: string;
  gateway: Gateway;
  close(): Promise<void>;
}

const H2_PREFACE = Buffer.from('PRI * HTTP/2.0\r\n');

export async function startGateway(config: GatewayConfig, options: ServeOptions = {}): Promise<RunningGateway> {
  const host = options.host ?? '127.0.0.1';
  if ((config.keys === undefined || config.keys.length === 0) && !isLoopback(host)) {
    throw new ConfigError([`keys: required when listening on ${host} (running without keys is allowed only on a loopback address)`]);
  }
  const gateway = createGateway(config, options);
  await gateway.ready();

  let inFlight = 0;
  let drained: (() => void) | undefined;
  const listener = getRequestListener((req) => gateway.fetch(req));
  const track = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse): void => {
    inFlight++;
    let counted = true;
    const finish = (): void => {
      if (!counted) return;
      counted = false;
      inFlight--;
      if (inFlight === 0) drained?.();
    };
    res.once('close', finish);
    res.once('finish', finish);
    void listener(req as never, res as never);
  };

  const h1 = createHttp1Server({ keepAliveTimeout: 65_000 }, track);
  const h2 = createHttp2Server({}, track);
  const sessions = new Set<Http2Session>();
  h2.on('session', (s) => {
    sessions.add(s);
    s.once('close', () => sessions.delete(s));
  });
  const sockets = new Set<Socket>();
  const net = createNetServer((socket) => {
    // Headers and the first stream event go out as written (Nagle would hold small writes ~40 ms).
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.once('readable', () => {
      const head = socket.read(H2_PREFACE.length) ?? socket.read();
      if (head === null) return;
      socket.unshift(head);
      const isH2 = Buffer.isBuffer(head) && head.length >= 4 && head.subarray(0, Math.min(head.length, H2_PREFACE.length)).equals(H2_PREFACE.subarray(0, Math.min(head.length, H2_PREFACE.length)));
      (isH2 ? h2 : h1).emit('connection', socket);
    });
  });

  await new Promise<void>((resolve, reject) => {
    net.once('error', reject);
    net.listen(options.port ?? 0, host, () => resolve());
  });
  const address = net.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;

  const close = (): Promise<void> =>
    (closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => net.close(() => resolve()));
      // Idle keep-alive connections close now; busy ones once their response is done.
      h1.closeIdleConnections();
      for (const s of sessions) s.close();
      if (inFlight > 0) {
        await new Promise<void>((resolve) => {
          drained = resolve;
          setTimeout(resolve, options.drainTimeoutMs ?? 30_000).unref();
        });
      }
      h1.closeAllConnections();
      for (const s of sockets) s.destroy();
      await stopped;
      await gateway.close();
    })());

  // After the drain starts, connections that finish a response close rather than wait for another.
  h1.on('request', (_req, res) => {
    if (closing !== undefined) res.setHeader('connection', 'close');
  });

  return { url: `http://${shownHost}:${address.port}`, gateway, close };
}
