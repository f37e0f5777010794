/**
 * The local AgentCore Memory endpoint answers as the service does (reference §1, §5), checked with
 * plain HTTP requests in the SDK's wire form: paths and methods, newest-first pages, blobs as
 * text, and its errors (status, x-amzn-errortype, Coral's validation messages).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { start, type Endpoint } from '../support/agentcore-endpoint.js';

const AUTH = 'AWS4-HMAC-SHA256 Credential=AKIDINTERLINGUATEST/20260115/us-east-1/bedrock-agentcore/aws4_request, SignedHeaders=host, Signature=00';
const T = Date.UTC(2026, 0, 15, 10);

let endpoint: Endpoint;
afterEach(() => endpoint.close());

async function call(method: string, path: string, body?: unknown, auth = AUTH): Promise<{ status: number; type: string | null; body: Record<string, unknown> }> {
  const init: RequestInit = { method, headers: { authorization: auth, 'content-type': 'application/json' } };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const res = await fetch(endpoint.url + path, init);
  return { status: res.status, type: res.headers.get('x-amzn-errortype'), body: (await res.json()) as Record<string, unknown> };
}

const events = (): string => `/memories/${endpoint.memoryId}/events`;
const session = (actor: string, s: string): string => `/memories/${endpoint.memoryId}/actor/${encodeURIComponent(actor)}/sessions/${encodeURIComponent(s)}`;
const create = (fields: Record<string, unknown>) =>
  call('POST', events(), { actorId: 'alice', sessionId: 's', eventTimestamp: T / 1000, payload: [{ conversational: { content: { text: 'hi' }, role: 'USER' } }], ...fields });

describe('the local AgentCore Memory endpoint', () => {
  it('CreateEvent answers 201 with the event; ListEvents pages newest first, payloads optional, blobs as text', async () => {
    endpoint = await start({ now: () => T });
    const made = await create({ payload: [{ blob: '{"kept":"as sent"}' }, { blob: { a: 1, b: [true, null] } }], metadata: { k: { stringValue: 'v' } } });
    expect(made.status).toBe(201);
    const event = made.body['event'] as Record<string, unknown>;
    expect(event).toMatchObject({ memoryId: endpoint.memoryId, actorId: 'alice', sessionId: 's', eventTimestamp: T / 1000, metadata: { k: { stringValue: 'v' } } });
    expect(event['eventId']).toMatch(new RegExp(`^${String(T).padStart(19, '0')}#[0-9a-f]{8}$`));
    expect(event['payload']).toEqual([{ blob: '{"kept":"as sent"}' }, { blob: '{a=1, b=[true, null]}' }]);
    for (let i = 1; i <= 4; i++) await create({ eventTimestamp: (T + i) / 1000, payload: [{ conversational: { content: { text: `m${i}` }, role: 'USER' } }] });
    const first = await call('POST', session('alice', 's'), { maxResults: 2, includePayloads: false });
    const page = first.body['events'] as Record<string, unknown>[];
    expect(page.map((e) => e['eventTimestamp'])).toEqual([(T + 4) / 1000, (T + 3) / 1000]);
    expect(page.every((e) => !('payload' in e))).toBe(true);
    const rest = await call('POST', session('alice', 's'), { nextToken: first.body['nextToken'] });
    expect((rest.body['events'] as unknown[]).length).toBe(3);
    expect(rest.body['nextToken']).toBeUndefined();
    // The default page is 20, the SDK's documented default.
    for (let i = 5; i <= 25; i++) await create({ eventTimestamp: (T + i) / 1000 });
    expect(((await call('POST', session('alice', 's'), {})).body['events'] as unknown[]).length).toBe(20);
  });

  it('refuses broken constraints with a ValidationException in Coral words, every problem at once', async () => {
    endpoint = await start();
    const r = await create({ actorId: 'a b', eventTimestamp: undefined, payload: [{ conversational: { content: { text: 'x'.repeat(100_001) }, role: 'user' } }] });
    expect(r.status).toBe(400);
    expect(r.type).toMatch(/^ValidationException:/);
    expect(r.body).toEqual({
      message:
        "4 validation errors detected: Value 'a b' at 'actorId' failed to satisfy constraint: Member must satisfy regular expression pattern: ^[a-zA-Z0-9][a-zA-Z0-9-_/]*(?::[a-zA-Z0-9-_/]+)*[a-zA-Z0-9-_/]*$; " +
        "Value null at 'eventTimestamp' failed to satisfy constraint: Member must not be null; " +
        "Value 'user' at 'payload.1.member.conversational.role' failed to satisfy constraint: Member must satisfy enum value set: [ASSISTANT, USER, TOOL, OTHER]; " +
        "Value '*** Sensitive Data Redacted ***' at 'payload.1.member.conversational.content.text' failed to satisfy constraint: Member must have length less than or equal to 100000",
      reason: 'FieldValidationFailed',
    });
    const limits = await create({
      payload: Array.from({ length: 101 }, () => ({ blob: 'x' })),
      metadata: Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, { stringValue: i === 0 ? '{"json":1}' : 'v' }])),
    });
    expect(limits.body['message']).toMatch(/^3 validation errors detected: .*at 'payload' failed to satisfy constraint: Member must have length less than or equal to 100; .*at 'metadata' failed to satisfy constraint: Member must have length less than or equal to 15; Value '\{"json":1\}' at 'metadata\.k0\.stringValue' .*pattern: \^\[a-zA-Z0-9\\s\._:\/=\+@-\]\*\$$/);
    for (const maxResults of [0, 101]) {
      const bad = await call('POST', session('alice', 's'), { maxResults });
      expect(bad.status).toBe(400);
      expect(bad.body['message']).toMatch(maxResults === 0 ? /Member must have value greater than or equal to 1$/ : /Member must have value less than or equal to 100$/);
    }
    const parse = await call('POST', events(), '{not json');
    expect(parse.body).toEqual({ message: 'Cannot parse the request body as JSON', reason: 'CannotParse' });
  });

  it('an unknown memory or event is a ResourceNotFoundException; no signature is a 403; an unknown path a 404', async () => {
    endpoint = await start();
    const memory = await call('POST', '/memories/nosuchmemory-0123456789/actors', {});
    expect([memory.status, memory.type?.split(':')[0], memory.body['message']]).toEqual([404, 'ResourceNotFoundException', 'Memory not found: nosuchmemory-0123456789']);
    const event = await call('GET', `${session('alice', 's')}/events/${encodeURIComponent('0000001752235548000#97f30a6b')}`);
    expect([event.status, event.type?.split(':')[0]]).toEqual([404, 'ResourceNotFoundException']);
    const badId = await call('DELETE', `${session('alice', 's')}/events/not-an-id`);
    expect(badId.body['message']).toBe("1 validation error detected: Value 'not-an-id' at 'eventId' failed to satisfy constraint: Member must satisfy regular expression pattern: ^[0-9]+#[a-fA-F0-9]+$");
    const unsigned = await call('POST', `/memories/${endpoint.memoryId}/actors`, {}, '');
    expect([unsigned.status, unsigned.type?.split(':')[0]]).toEqual([403, 'MissingAuthenticationTokenException']);
    const nowhere = await call('PUT', `/memories/${endpoint.memoryId}/events`, {});
    expect([nowhere.status, nowhere.type?.split(':')[0]]).toEqual([404, 'UnknownOperationException']);
  });

  it('a clientToken seen before gives back the first event; a session with no events left is gone', async () => {
    endpoint = await start();
    const a = await create({ clientToken: 'retry-1' });
    const b = await create({ clientToken: 'retry-1', payload: [{ blob: 'different' }] });
    expect(b.body).toEqual(a.body);
    expect(endpoint.held()).toBe(1);
    const id = (a.body['event'] as { eventId: string }).eventId;
    const sessions = () => call('POST', `/memories/${endpoint.memoryId}/actor/alice/sessions`, {});
    expect(((await sessions()).body['sessionSummaries'] as unknown[]).length).toBe(1);
    expect((await call('DELETE', `${session('alice', 's')}/events/${encodeURIComponent(id)}`)).body).toEqual({ eventId: id });
    expect((await sessions()).body['sessionSummaries']).toEqual([]);
  });

  it("the memory's own expiry removes events that many days after they were written", async () => {
    let now = T;
    endpoint = await start({ expiryDays: 7, now: () => now });
    await create({});
    now += 7 * 86_400_000 - 1;
    expect(endpoint.held()).toBe(1);
    now += 1;
    expect(endpoint.held()).toBe(0);
    expect((await call('POST', session('alice', 's'), {})).body).toEqual({ events: [] });
  });
});
