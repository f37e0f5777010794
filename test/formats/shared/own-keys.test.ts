/**
 * The key counts of shared/own-keys.ts answer what `Object.keys` would, without its list: own
 * enumerable string keys only (not inherited enumerable ones, not non-enumerable own ones).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasKeys, keysWithin, lastOfSeveralKeys, onlyKey } from '../../../src/formats/shared/own-keys.js';

const key = fc.constantFrom('a', 'b', 'text', 'role', 'content', '__proto__', '0', '1', 'name');

/** An object with `own` keys, `hidden` non-enumerable own keys and `inherited` enumerable keys on its prototype. */
function make(own: string[], hidden: string[], inherited: string[]): object {
  const proto: Record<string, unknown> = {};
  for (const k of inherited) Object.defineProperty(proto, k, { value: 1, enumerable: true });
  const o = Object.create(inherited.length > 0 ? proto : Object.prototype) as object;
  for (const k of own) Object.defineProperty(o, k, { value: k, enumerable: true, writable: true, configurable: true });
  for (const k of hidden) if (!own.includes(k)) Object.defineProperty(o, k, { value: 0, enumerable: false });
  return o;
}

describe('own-keys', () => {
  it('hasKeys, onlyKey, keysWithin and lastOfSeveralKeys answer as Object.keys would', () => {
    fc.assert(
      fc.property(fc.uniqueArray(key, { maxLength: 5 }), fc.uniqueArray(key, { maxLength: 2 }), fc.uniqueArray(key, { maxLength: 2 }), (own, hidden, inherited) => {
        const o = make(own, hidden, inherited);
        const keys = Object.keys(o);
        expect(hasKeys(o)).toBe(keys.length > 0);
        expect(onlyKey(o)).toBe(keys.length === 1 ? keys[0] : undefined);
        expect(keysWithin(o, 'role', 'content')).toBe(keys.every((k) => k === 'role' || k === 'content'));
        expect(lastOfSeveralKeys(o)).toBe(keys.length > 1 ? keys[keys.length - 1] : undefined);
      }),
    );
  });

  it('reads JSON.parse output, the objects they are used on', () => {
    const o = JSON.parse('{"conversational":{"role":"USER","content":{"text":"hi"}}}') as Record<string, Record<string, unknown>>;
    expect(onlyKey(o)).toBe('conversational');
    expect(keysWithin(o['conversational'] as object, 'role', 'content')).toBe(true);
    expect(lastOfSeveralKeys(JSON.parse('{"id":"c","content":[],"name":"n"}') as object)).toBe('name');
    expect(hasKeys({})).toBe(false);
  });
});
