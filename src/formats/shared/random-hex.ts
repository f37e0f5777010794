/**
 * 32 random lowercase hex chars (128 bits) for ids a codec must make up (`msg_`, `fc_`, `resp_`).
 * Read from a pool of random bytes refilled 256 ids at a time: `crypto.randomUUID()` and taking its
 * dashes out cost ~1.1 µs an id, this ~0.3 µs, and a response of another origin mints several.
 */
import * as crypto from 'node:crypto';

const POOL_BYTES = 4096;
const ID_BYTES = 16;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let offset = POOL_BYTES;

export function randomHex32(): string {
  if (offset + ID_BYTES > POOL_BYTES) {
    crypto.randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return hex;
}
