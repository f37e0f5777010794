/**
 * The a2a v0.3 fast checks (src/formats/a2a/fast-v03.ts) say "valid" exactly where
 * V03MessageSchema and V03TaskSchema do: on the v0.3 messages of a generated history and a task
 * holding some of them, and on every one-field edit of those (each field, at every depth, removed
 * or replaced by a value of another type).
 */
import { describe, expect, it } from 'vitest';
import { decode } from '../../../src/index.js';
import { encodeRequest } from '../../../src/formats/a2a/request-encode.js';
import { v03MessageOk, v03TaskOk } from '../../../src/formats/a2a/fast-v03.js';
import { V03MessageSchema, V03TaskSchema } from '../../../src/formats/a2a/schema.js';
import { LossList } from '../../../src/formats/shared/loss-list.js';
import type { Request } from '../../../src/model/request.js';
import { requestBodies } from '../../../bench/convert/bodies.js';
import { oneFieldEdits } from '../../support/one-field-edits.js';

const REPLACEMENTS: unknown[] = [undefined, null, '', 'x', 0, 1.5, true, [], [1], ['a'], {}, { text: 'a' }, 'user', 'agent', 'text', 'file', 'data', 'message', 'task', 'created', 'working', Object.create(null)];

const EDITS = { replacements: REPLACEMENTS, extraKeys: ['kind', 'text', 'data', 'file', 'bytes', 'uri', 'metadata', 'parts'] };

const body = JSON.parse(requestBodies(4, 'small', ['a2a']).text.get('a2a') as string) as unknown;
const canonical = decode(body, { from: 'a2a' }).value as Request;
const history = encodeRequest(canonical, { preserve: false, losses: new LossList(), a2aVersion: '0.3' }) as Record<string, unknown>[];
const extra: Record<string, unknown>[] = [
  { messageId: 'm', role: 'user', parts: [{ kind: 'file', file: { uri: 'u', mimeType: 'image/png', name: 'n' } }, { kind: 'file', file: { bytes: 'AAAA' } }], extensions: ['e'] },
  { kind: 'message', messageId: 'm', role: 'agent', parts: [{ kind: 'file', file: { data: 'AAAA' }, metadata: {} }, { kind: 'data', data: { x: 1 } }], referenceTaskIds: ['r'], contextId: 'c', taskId: 't', metadata: { k: 1 } },
];

describe('a2a v0.3 message fast check', () => {
  it('agrees with the schema on a v0.3 history and every one-field edit of its messages', () => {
    let yes = 0;
    let no = 0;
    for (const message of [...history, ...extra]) {
      expect(v03MessageOk(message)).toBe(V03MessageSchema.safeParse(message).success);
      for (const edited of oneFieldEdits(message, EDITS)) {
        const fast = v03MessageOk(edited);
        const zod = V03MessageSchema.safeParse(edited).success;
        expect(fast, JSON.stringify(edited)).toBe(zod);
        if (zod) yes++;
        else no++;
      }
    }
    expect(yes).toBeGreaterThan(100);
    expect(no).toBeGreaterThan(100);
  });

  it('agrees with the task schema on a task and every one-field edit of it', () => {
    const [first, second, third] = history;
    const tasks: Record<string, unknown>[] = [
      { kind: 'task', id: 't', contextId: 'c', status: { state: 'completed', timestamp: 'now', message: third }, history: [first, second], metadata: { k: 1 } },
      { id: 't', status: { state: 'created' }, artifacts: [{ artifactId: 'a', name: 'n', description: 'd', parts: [{ kind: 'text', text: 'a' }, { kind: 'data', data: { x: 1 } }], extensions: ['e'], metadata: {} }] },
    ];
    let yes = 0;
    let no = 0;
    for (const task of tasks) {
      expect(v03TaskOk(task)).toBe(V03TaskSchema.safeParse(task).success);
      for (const edited of oneFieldEdits(task, EDITS)) {
        const fast = v03TaskOk(edited);
        const zod = V03TaskSchema.safeParse(edited).success;
        expect(fast, JSON.stringify(edited)).toBe(zod);
        if (zod) yes++;
        else no++;
      }
    }
    expect(yes).toBeGreaterThan(100);
    expect(no).toBeGreaterThan(100);
  });

  it('says no to a symbol key in metadata, as the schema does', () => {
    const message = { messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'a' }], metadata: { [Symbol('s')]: 1 } };
    expect(v03MessageOk(message)).toBe(false);
    expect(V03MessageSchema.safeParse(message).success).toBe(false);
  });
});
