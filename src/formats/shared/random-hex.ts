/**
 * 32 random lowercase hex chars (128 bits) for ids a codec must make up (`msg_`, `fc_`, `resp_`).
 * Random bytes are turned into one hex string 256 ids at a time, and each id is a slice of it:
 * `crypto.randomUUID()` and taking its dashes out cost ~1.1 µs an id, a Buffer's hex of 16 bytes
 * ~0.35 µs, a slice of the pool's text ~0.03 µs. A response of another origin mints several.
 */
import * as crypto from 'node:crypto';

const POOL_BYTES = 4096;
const ID_CHARS = 32;
const bytes = Buffer.allocUnsafe(POOL_BYTES);
let pool = '';
let offset = 0;

export function randomHex32(): string {
  if (offset + ID_CHARS > pool.length) {
    crypto.randomFillSync(bytes);
    pool = bytes.toString('hex');
    offset = 0;
  }
  const hex = pool.slice(offset, offset + ID_CHARS);
  offset += ID_CHARS;
  return hex;
}
