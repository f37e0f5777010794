import { describe, expect, it } from 'vitest';
import { standardBase64 } from '../../../src/formats/shared/base64.js';
import type { Issue } from '../../../src/model/errors.js';
import { formatPath } from '../../../src/model/loss.js';
import { parseDataUrl, formatDataUrl } from '../../../src/formats/shared/data-url.js';
import { LossList } from '../../../src/formats/shared/loss-list.js';
import { keepResidue, reportForeignExt, residue, restoreResidue } from '../../../src/formats/shared/residue.js';
import { checkTextSize } from '../../../src/formats/shared/text-limit.js';

describe('data URLs', () => {
  it('parses the media type from the URL and never guesses one', () => {
    expect(parseDataUrl('data:image/png;base64,iVBORw0KGgo=')).toEqual({ mediaType: 'image/png', data: 'iVBORw0KGgo=' });
    expect(parseDataUrl('https://example.com/a.png')).toBeUndefined();
    expect(parseDataUrl('data:;base64,AAAA')).toBeUndefined();
    expect(parseDataUrl('data:text/plain,hello')).toBeUndefined();
    // a parameter would be lost on the way back, so it is not a plain base64 data URL
    expect(parseDataUrl('data:text/plain;charset=utf-8;base64,aGk=')).toBeUndefined();
    expect(formatDataUrl('application/pdf', 'JVBERi0=')).toBe('data:application/pdf;base64,JVBERi0=');
  });
});

describe('residue', () => {
  it('keeps unmapped fields (nulls too) and writes back only its own, never hints', () => {
    const rest = residue({ role: 'assistant', refusal: null, audio: { id: 'a' } }, new Set(['role']));
    expect(rest).toEqual({ refusal: null, audio: { id: 'a' } });
    const target: { ext?: Record<string, Record<string, never>> } = {};
    keepResidue(target, 'openai-chat', { ...rest, $hint: 'x' });
    const out = { role: 'assistant' } as Record<string, unknown>;
    restoreResidue(out as never, target.ext, 'openai-chat');
    expect(out).toEqual({ role: 'assistant', refusal: null, audio: { id: 'a' } });
    const other = {} as Record<string, unknown>;
    restoreResidue(other as never, target.ext, 'anthropic-messages');
    expect(other).toEqual({});
  });

  it('reports meaningful foreign fields only', () => {
    const losses = new LossList();
    const reported = reportForeignExt(
      { 'openai-chat': { refusal: null, annotations: [], logit_bias: { '1': 2 }, $form: 'x' }, 'anthropic-messages': { container: 'c' } },
      'anthropic-messages',
      ['messages', 1],
      losses,
    );
    expect(reported).toBe(true);
    expect(losses.items.map((l) => formatPath(l.path))).toEqual(['messages[1].logit_bias']);
  });
});

describe('text size limit', () => {
  it('measures UTF-8 bytes, not characters', () => {
    const issues: Issue[] = [];
    checkTextSize('é'.repeat(6), { maxTextBytes: 11 }, ['t'], issues);
    expect(issues[0]).toMatchObject({ code: 'too_large', path: ['t'], received: '12 bytes' });
    const ok: Issue[] = [];
    checkTextSize('é'.repeat(5), { maxTextBytes: 11 }, ['t'], ok);
    expect(ok).toEqual([]);
  });
});

describe('standardBase64', () => {
  it('returns standard padded base64 unchanged (the same string)', () => {
    const data = Buffer.from('hello world!').toString('base64');
    expect(standardBase64(data)).toBe(data);
  });
  it('rewrites URL-safe and unpadded forms to the same bytes, standard and padded', () => {
    for (const n of [1, 2, 3, 4, 5, 31]) {
      const bytes = Buffer.from(Array.from({ length: n }, (_, i) => (i * 97 + 251) % 256));
      const out = standardBase64(bytes.toString('base64url'));
      expect(out).toBe(bytes.toString('base64'));
    }
  });
  it('says undefined for text that is not base64', () => {
    for (const bad of ['abc!', 'a', 'abcde', 'ab cd', 'ab=c']) expect(standardBase64(bad), bad).toBeUndefined();
  });
});

describe('residue keeps a wire key named __proto__ as data', () => {
  it('neither changes the prototype nor loses the key, both ways', () => {
    const wire = JSON.parse('{"model":"m","__proto__":{"polluted":true}}') as Record<string, unknown>;
    const rest = residue(wire as never, new Set(['model']));
    expect(Object.getPrototypeOf(rest)).toBe(Object.prototype);
    expect((rest as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(JSON.stringify(rest)).toBe('{"__proto__":{"polluted":true}}');
    const out: Record<string, unknown> = { model: 'm' };
    restoreResidue(out as never, { x: rest as never }, 'x');
    expect(JSON.stringify(out)).toBe('{"model":"m","__proto__":{"polluted":true}}');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
