import { describe, expect, it } from 'vitest';
import { randomHex32, randomUuid } from '../../../src/formats/shared/random-hex.js';

describe('random ids', () => {
  it('randomHex32 gives 32 lowercase hex chars, different each time', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 600; i++) seen.add(randomHex32());
    expect(seen.size).toBe(600);
    for (const id of seen) expect(id).toMatch(/^[0-9a-f]{32}$/);
  });

  it("randomUuid has crypto.randomUUID's form (version 4, RFC 4122 variant) and uses every variant digit", () => {
    const form = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(crypto.randomUUID()).toMatch(form);
    const variants = new Set<string>();
    const seen = new Set<string>();
    for (let i = 0; i < 600; i++) {
      const id = randomUuid();
      expect(id).toMatch(form);
      seen.add(id);
      variants.add(id.charAt(19));
    }
    expect(seen.size).toBe(600);
    expect([...variants].sort()).toEqual(['8', '9', 'a', 'b']);
  });
});
