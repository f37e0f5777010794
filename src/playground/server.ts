/**
 * `interlingua playground`: the page on its own small server, with no configuration. It binds the
 * loopback address only (the page converts whatever is pasted and may browse a memory store).
 */
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { openMemory, type Memory } from '../memory/index.js';
import { mountPlayground } from './mount.js';

export interface PlaygroundServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startPlayground(options: { port?: number; host?: string; store?: string } = {}): Promise<PlaygroundServer> {
  const host = options.host ?? '127.0.0.1';
  // Opened now, so a bad --store URL fails at start rather than on the first click.
  const memory: Memory | undefined = options.store === undefined ? undefined : await openMemory(options.store);
  const app = new Hono();
  mountPlayground(app, memory === undefined ? {} : { memory });
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: options.port ?? 0, hostname: host }, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : (options.port ?? 0);
  return {
    url: `http://${host}:${port}`,
    port,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await memory?.close();
    },
  };
}
