/**
 * CRC-32 (IEEE 802.3), the checksum the AWS event-stream prelude and message end carry (and the
 * stash fingerprint's sum where node:zlib has none).
 * Table-driven, slicing by 8: eight independent table lookups per 8 bytes instead of eight
 * dependent steps (zlib.crc32 is not in every Node 20, and its call costs as much on small messages).
 */

/** TABLES[k * 256 + n]: the CRC of byte n followed by k zero bytes (k = 0..7). */
const TABLES = (() => {
  const t = new Int32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  for (let n = 0; n < 256; n++) {
    let c = t[n] as number;
    for (let k = 1; k < 8; k++) {
      c = (t[c & 0xff] as number) ^ (c >>> 8);
      t[k * 256 + n] = c;
    }
  }
  return t;
})();

/** The CRC-32 of `bytes[start..end)`. */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  return crc32Update(0, bytes, start, end);
}

/** Continues `crc` (a finished CRC-32 of earlier bytes, 0 for none) over `bytes[start..end)`. */
export function crc32Update(crc: number, bytes: Uint8Array, start: number, end: number): number {
  const t = TABLES;
  let c = ~crc;
  let i = start;
  for (const last = end - 7; i < last; i += 8) {
    c ^= (bytes[i] as number) | ((bytes[i + 1] as number) << 8) | ((bytes[i + 2] as number) << 16) | ((bytes[i + 3] as number) << 24);
    const d = (bytes[i + 4] as number) | ((bytes[i + 5] as number) << 8) | ((bytes[i + 6] as number) << 16) | ((bytes[i + 7] as number) << 24);
    c =
      (t[1792 + (c & 0xff)] as number) ^
      (t[1536 + ((c >>> 8) & 0xff)] as number) ^
      (t[1280 + ((c >>> 16) & 0xff)] as number) ^
      (t[1024 + (c >>> 24)] as number) ^
      (t[768 + (d & 0xff)] as number) ^
      (t[512 + ((d >>> 8) & 0xff)] as number) ^
      (t[256 + ((d >>> 16) & 0xff)] as number) ^
      (t[d >>> 24] as number);
  }
  for (; i < end; i++) c = (t[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return ~c >>> 0;
}

/**
 * `crc32Update(crc, bytes, 0, bytes.length)` for one fixed `bytes`, in four table lookups whatever
 * its length: the CRC register after a fixed run of bytes is an affine function of the register
 * before it (XOR-linear, plus the run's CRC from zero), so its linear part is tabulated per byte of
 * the register. For the header section of an AWS event-stream message, the same for every event of
 * a type and most of a small message's bytes. Building the tables costs 32 CRCs of `bytes` (4 KB).
 */
export class Crc32Over {
  private readonly tables = new Int32Array(4 * 256);
  /** The register after `bytes` from a register of 0. */
  private readonly base: number;

  constructor(bytes: Uint8Array) {
    const run = (register: number): number => ~crc32Update(~register, bytes, 0, bytes.length);
    this.base = run(0);
    const t = this.tables;
    for (let bit = 0; bit < 32; bit++) {
      const row = bit >>> 3;
      const b = 1 << (bit & 7);
      // The image of a single bit; a byte's image is the XOR of its bits' images.
      const image = run(1 << bit) ^ this.base;
      for (let low = 0; low < b; low++) t[row * 256 + b + low] = (t[row * 256 + low] as number) ^ image;
    }
  }

  /** The CRC-32 of the bytes `crc` was the CRC of, followed by `bytes`. */
  update(crc: number): number {
    const c = ~crc;
    const t = this.tables;
    const next = (t[c & 0xff] as number) ^ (t[256 + ((c >>> 8) & 0xff)] as number) ^ (t[512 + ((c >>> 16) & 0xff)] as number) ^ (t[768 + (c >>> 24)] as number) ^ this.base;
    return ~next >>> 0;
  }
}
