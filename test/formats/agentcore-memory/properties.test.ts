/**
 * Properties over random canonical messages (arbitrary.ts):
 * - every event written is one CreateEvent takes (the validator), with or without `preserve`;
 * - with `preserve` an event reads back as exactly the message written (what it could not hold rides
 *   in its stash blob), but for argument text that is just JSON.stringify of the arguments; a
 *   system message is the one thing no event holds;
 * - without `preserve`, a message written with no loss reported reads back as itself (up to the
 *   string-or-parts form, argument text that says no more than the arguments, and empty metadata):
 *   nothing is lost silently;
 * - a whole conversation round-trips under `preserve`;
 * - broken events (random edits of written ones) fail with a ValidationError or read, never crash.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventToMessage, messageToEvent } from '../../../src/formats/agentcore-memory/index.js';
import { ValidationError } from '../../../src/model/errors.js';
import type { JsonObject } from '../../../src/model/json.js';
import type { Message } from '../../../src/model/message.js';
import { validateAgentcoreMemory } from '../../support/validators/agentcore-memory.js';
import { bigMessage, message } from './arbitrary.js';
import { decode, encode, json } from './helpers.js';

const LIMITS = { maxTextBytes: 10_000_000 };
const isSystem = (m: Message): boolean => m.role === 'system' || m.role === 'developer';

/**
 * A tool call's argument text that is exactly JSON.stringify of its arguments says nothing more
 * (every encoder writes that text when it has none): the events leave it out, even under preserve.
 */
function sameCall(m: Message): Message {
  return JSON.parse(JSON.stringify(m), (_k, value: unknown) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const v = { ...(value as Record<string, unknown>) };
    if (v['type'] === 'tool-call' && v['argumentsJson'] === JSON.stringify(v['arguments'])) delete v['argumentsJson'];
    return v;
  }) as Message;
}

const isEmpty = (x: unknown): boolean => x === null || x === undefined || (Array.isArray(x) ? x.length === 0 : typeof x === 'object' && Object.keys(x).length === 0);

/** The forms a plain encode keeps no trace of and reports no loss for. */
function formless(m: Message): Message {
  return JSON.parse(JSON.stringify(m), (key, value: unknown) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const v = { ...(value as Record<string, unknown>) };
    if (v['type'] === 'tool-call' && v['argumentsJson'] === JSON.stringify(v['arguments'])) delete v['argumentsJson'];
    // Another format's ext entry of hints and empty values only is no loss (conventions), and not written.
    const ext0 = v['ext'] as Record<string, Record<string, unknown>> | undefined;
    if (ext0 && key !== 'ext') {
      const kept = Object.fromEntries(Object.entries(ext0).filter(([origin, fields]) => origin === 'agentcore-memory' || Object.entries(fields).some(([k, x]) => !k.startsWith('$') && !isEmpty(x))));
      if (Object.keys(kept).length === 0) delete v['ext'];
      else v['ext'] = kept;
    }
    if ('role' in v && 'parts' in v) {
      delete v['stringContent'];
      // Empty metadata says nothing: no event metadata is written for it.
      const ext = v['ext'] as Record<string, Record<string, unknown>> | undefined;
      const own = ext?.['agentcore-memory'];
      if (ext && own && JSON.stringify(own['metadata']) === '{}') {
        const { metadata: _m, ...rest } = own;
        const next: Record<string, unknown> = { ...ext, 'agentcore-memory': rest };
        if (Object.keys(rest).length === 0) delete next['agentcore-memory'];
        if (Object.keys(next).length === 0) delete v['ext'];
        else v['ext'] = next;
      }
    }
    return v;
  }) as Message;
}

describe('random messages', () => {
  it('under preserve: a valid event that reads back exactly', () => {
    fc.assert(
      fc.property(message, (m) => {
        const { event, losses } = messageToEvent(m, { preserve: true });
        if (isSystem(m)) {
          expect(event).toBeUndefined();
          expect(losses.map((l) => l.code)).toEqual(['system-message']);
          return;
        }
        const wire = json(event) as JsonObject;
        expect(validateAgentcoreMemory('request', { events: [wire] })).toEqual([]);
        expect(sameCall(eventToMessage(wire, { limits: LIMITS }))).toEqual(sameCall(m));
      }),
      { numRuns: 300 },
    );
  });

  it('without preserve: a valid event; when nothing is reported lost it reads back as the message', () => {
    fc.assert(
      fc.property(message, (m) => {
        fc.pre(!isSystem(m));
        const { event, losses } = messageToEvent(m);
        const wire = json(event) as JsonObject;
        expect(validateAgentcoreMemory('request', { events: [wire] })).toEqual([]);
        const back = eventToMessage(wire, { limits: LIMITS });
        const lost = losses.filter((l) => !['long-text-blob', 'metadata-in-blob', 'payload-limit'].includes(l.code));
        if (lost.length === 0) expect(formless(back)).toEqual(formless(m));
      }),
      { numRuns: 300 },
    );
  });

  it('a message of more parts than an event holds stays within 100 payloads and reads back', () => {
    fc.assert(
      fc.property(bigMessage, (m) => {
        const { event, losses } = messageToEvent(m, { preserve: true });
        const wire = json(event) as JsonObject;
        expect(validateAgentcoreMemory('request', { events: [wire] })).toEqual([]);
        const packed = (wire['payload'] as JsonObject[]).some((p) => typeof p['blob'] === 'string' && p['blob'].startsWith('{"blobType":"interlingua.payloads"'));
        expect(losses.some((l) => l.code === 'payload-limit')).toBe(packed);
        expect(eventToMessage(wire, { limits: LIMITS })).toEqual(m);
      }),
      { numRuns: 30 },
    );
  });

  it('a conversation round-trips under preserve', () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 6 }), (messages) => {
        const { body } = encode({ messages }, true);
        const { ['x-interlingua']: _s, ...events } = body;
        expect(validateAgentcoreMemory('request', events)).toEqual([]);
        const back = decode(body);
        expect(back.losses).toEqual([]);
        expect((json(back.req).messages).map(sameCall)).toEqual(messages.map(sameCall));
      }),
      { numRuns: 100 },
    );
  });
});

describe('broken events', () => {
  /** An edit somewhere inside an event: a value replaced by another JSON value. */
  const edit = (event: JsonObject, path: number[], value: unknown): unknown => {
    const copy = JSON.parse(JSON.stringify(event)) as unknown;
    let node: unknown = copy;
    let parent: Record<string, unknown> | unknown[] | undefined;
    let key: string | number | undefined;
    for (const step of path) {
      if (node === null || typeof node !== 'object') break;
      const keys = Array.isArray(node) ? node.map((_v, i) => i) : Object.keys(node);
      if (keys.length === 0) break;
      parent = node as Record<string, unknown>;
      key = keys[step % keys.length] as string | number;
      node = (parent as Record<string | number, unknown>)[key];
    }
    if (parent !== undefined && key !== undefined) (parent as Record<string | number, unknown>)[key] = value;
    return copy;
  };

  it('fail with a ValidationError naming a place in the event, or read; nothing else', () => {
    fc.assert(
      fc.property(message, fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), fc.boolean(), (m, path, value, asText) => {
        fc.pre(!isSystem(m));
        const event = json(messageToEvent(m).event) as JsonObject;
        // Blobs are JSON text: edit inside the parsed blob too, half of the time.
        const target = asText ? JSON.parse(JSON.stringify(event), (_k, v: unknown) => (typeof v === 'string' && v.startsWith('{"blobType"') ? JSON.parse(v) : v)) as JsonObject : event;
        const broken = edit(target, path, value);
        try {
          eventToMessage(broken, { limits: LIMITS });
        } catch (e) {
          if (!(e instanceof ValidationError)) throw e;
          expect(e.issues.length).toBeGreaterThan(0);
          for (const i of e.issues) expect(i.path[0]).toBe('events');
        }
      }),
      { numRuns: 300 },
    );
  });
});
