/**
 * Client keys: read where each official SDK sends its key and compared in constant time.
 * - OpenAI SDKs: `Authorization: Bearer <key>`; Anthropic: `x-api-key`; Google Gen AI:
 *   `x-goog-api-key` (or `?key=`); AWS Bedrock Runtime with a bearer token: `Authorization: Bearer`.
 * No keys configured means no authentication, which the server allows only on a loopback address.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** The key a request presents, from any of the places an SDK puts it (the URL is parsed only for `?key=`). */
export function presentedKey(headers: Headers, url: string): string | undefined {
  const auth = headers.get('authorization');
  if (auth !== null) {
    const m = /^Bearer\s+(.+)$/i.exec(auth.trim());
    if (m !== null) return m[1];
  }
  return headers.get('x-api-key') ?? headers.get('x-goog-api-key') ?? (url.includes('?') ? new URL(url).searchParams.get('key') ?? undefined : undefined);
}

// Digests have one length whatever the key's, so the comparison leaks neither content nor length.
const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

export class KeyCheck {
  private readonly digests: Buffer[];

  constructor(keys: readonly string[] | undefined) {
    this.digests = (keys ?? []).map(digest);
  }

  get enabled(): boolean {
    return this.digests.length > 0;
  }

  /** Whether the request may pass: true when no keys are configured. */
  allows(headers: Headers, url: string): boolean {
    if (!this.enabled) return true;
    const key = presentedKey(headers, url);
    if (key === undefined) return false;
    const d = digest(key);
    let ok = false;
    // Compare against every key (no early exit) so timing does not say which one matched.
    for (const k of this.digests) ok = timingSafeEqual(d, k) || ok;
    return ok;
  }
}

/** Whether a host string names a loopback interface (where running without keys is allowed). */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h) || h === '::ffff:127.0.0.1';
}
