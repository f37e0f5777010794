/**
 * `interlingua memory`: through the real `run()` on real stores (a SQLite file, the PostgreSQL
 * server on 127.0.0.1 under a fresh schema), and once as a real process of bin/interlingua.js.
 * The session used is examples/memory-session.json: a real Anthropic exchange (signed thinking, a
 * tool call, its result, the answer) exported from a store.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { EXIT, run } from '../../src/cli/main.js';
import { lossLine } from '../../src/cli/render.js';
import { convert } from '../../src/index.js';
import { MESSAGE_FORMATS, type SessionExport, type StoredEvent } from '../../src/memory/index.js';
import { dropSchema, schemaName, storeUrl } from '../memory/postgres-storage.js';
import { tempDir } from '../memory/sqlite-storage.js';
import { REPO_ROOT } from '../support/captures.js';

const EXAMPLE = join(REPO_ROOT, 'examples/memory-session.json');
const example = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as SessionExport;
const request = JSON.parse(readFileSync(join(REPO_ROOT, 'examples/anthropic-request.json'), 'utf8')) as { messages: unknown[] };
const response = JSON.parse(readFileSync(join(REPO_ROOT, 'examples/anthropic-response.json'), 'utf8')) as { content: unknown[] };
/** The whole exchange as Anthropic messages: the request's, then the response's answer. */
const conversation = [...request.messages, { role: 'assistant', content: response.content }];

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

function sqliteStore(): string {
  const dir = tempDir();
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return `sqlite:${join(dir, 'memory.db')}`;
}

function postgresStore(): string {
  const schema = schemaName();
  cleanup.push(() => dropSchema(schema));
  return storeUrl(schema);
}

type TestIo = CliIo & { out: string; err: string };
function io(stdin = ''): TestIo {
  const o: TestIo = {
    out: '',
    err: '',
    readFile: async (p) => readFileSync(p, 'utf8'),
    readStdin: async () => stdin,
    stdout: (t) => void (o.out += t),
    stderr: (t) => void (o.err += t),
  };
  return o;
}

/** Runs `interlingua memory ...argv`; the exit code and what was written. */
async function memory(argv: string[], stdin = ''): Promise<TestIo & { code: number }> {
  const o = io(stdin);
  const code = await run(['memory', ...argv], o);
  return Object.assign(o, { code });
}

async function importExample(store: string): Promise<void> {
  const r = await memory(['import', '--store', store, EXAMPLE]);
  expect(r.err).toBe('');
  expect(r.code).toBe(EXIT.ok);
  expect(JSON.parse(r.out)).toEqual({ actorId: 'alice', sessionId: 'largest-city', imported: 4 });
}

const session = (store: string): string[] => ['--store', store, '--actor', 'alice', '--session', 'largest-city'];
const withoutIds = (events: StoredEvent[]): Omit<StoredEvent, 'eventId'>[] => events.map(({ eventId: _, ...rest }) => rest);

describe('memory import and show', () => {
  it('the example imports, and show --to anthropic-messages gives the exchange back exactly', async () => {
    const store = sqliteStore();
    await importExample(store);
    const r = await memory(['show', ...session(store), '--to', 'anthropic-messages']);
    expect(r.code).toBe(EXIT.ok);
    expect(JSON.parse(r.out)).toEqual(conversation);
    expect(r.err).toBe('');
  });

  it.each(MESSAGE_FORMATS)('show --to %s gives the messages and the losses convert gives for the same conversation', async (format) => {
    const store = sqliteStore();
    await importExample(store);
    const r = await memory(['show', ...session(store), '--to', format]);
    expect(r.code).toBe(EXIT.ok);
    const direct = convert({ ...request, messages: conversation }, { from: 'anthropic-messages', to: format });
    const key = format === 'gemini' ? 'contents' : format === 'openai-responses' ? 'input' : 'messages';
    const expected = (direct.value as Record<string, unknown>)[key];
    expect(Array.isArray(expected) && expected.length).toBeGreaterThanOrEqual(4);
    expect(JSON.parse(r.out)).toEqual(expected);
    // Losses about the messages, not about the request around them (its tools, thinking budget).
    const lines = direct.losses.filter((l) => l.path[0] === 'messages').map((l) => `${lossLine(l)}\n`);
    expect(r.err).toBe(lines.join(''));
    if (format === 'anthropic-messages') expect(r.err).toBe('');
    else expect(r.err).toMatch(/^loss: /);
  });

  it('without --to: the events as stored; --turns K: the last K turns only', async () => {
    const store = sqliteStore();
    await importExample(store);
    const events = await memory(['show', ...session(store), '--compact']);
    expect(events.code).toBe(EXIT.ok);
    expect(events.out.trimEnd().split('\n')).toHaveLength(1);
    expect(withoutIds(JSON.parse(events.out) as StoredEvent[])).toEqual(withoutIds(example.events));
    const all = await memory(['show', ...session(store), '--turns', '50', '--to', 'anthropic-messages']);
    expect(JSON.parse(all.out)).toEqual(conversation);

    // Two plain exchanges (the example's question and answer, asked again a minute later): the last turn is the second.
    const [question, , , answer] = example.events;
    const again = (e: StoredEvent | undefined, ms: number): StoredEvent => ({ ...(e as StoredEvent), eventTimestamp: new Date(Date.parse((e as StoredEvent).eventTimestamp) + ms).toISOString() });
    const twice: SessionExport = { actorId: 'alice', sessionId: 'twice', events: [again(question, 0), again(answer, 0), again(question, 60_000), again(answer, 60_000)] };
    expect((await memory(['import', '--store', store], JSON.stringify(twice))).code).toBe(EXIT.ok);
    const ids = ['--store', store, '--actor', 'alice', '--session', 'twice'];
    const last = await memory(['show', ...ids, '--turns', '1']);
    expect((JSON.parse(last.out) as StoredEvent[]).map((e) => [e.sequence, e.eventTimestamp])).toEqual([
      [3, twice.events[2]?.eventTimestamp],
      [4, twice.events[3]?.eventTimestamp],
    ]);
    const lastMessages = await memory(['show', ...ids, '--turns', '1', '--to', 'anthropic-messages']);
    expect(JSON.parse(lastMessages.out)).toEqual([conversation[0], conversation[3]]);
  });

  it('--strict exits 3 and writes nothing when the dialect would lose something', async () => {
    const store = sqliteStore();
    await importExample(store);
    const lossy = await memory(['show', ...session(store), '--to', 'openai-chat', '--strict']);
    expect(lossy.code).toBe(EXIT.lossy);
    expect(lossy.out).toBe('');
    expect(lossy.err).toMatch(/^loss: dropped foreign-reasoning/m);
    expect(lossy.err).toMatch(/^error: --strict: /m);
    const exact = await memory(['show', ...session(store), '--to', 'anthropic-messages', '--strict']);
    expect(exact.code).toBe(EXIT.ok);
  });
});

describe('memory sessions, export, import, delete', () => {
  it('sessions lists the actor sessions, and without --actor the actors', async () => {
    const store = sqliteStore();
    await importExample(store);
    expect((await memory(['import', '--store', store, '--session', 'second', EXAMPLE])).code).toBe(EXIT.ok);
    expect((await memory(['import', '--store', store, '--actor', 'bob', EXAMPLE])).code).toBe(EXIT.ok);
    const alice = await memory(['sessions', '--store', store, '--actor', 'alice']);
    const list = JSON.parse(alice.out) as { actorId: string; sessionId: string; createdAt: string }[];
    expect(list.map((s) => [s.actorId, s.sessionId])).toEqual([
      ['alice', 'largest-city'],
      ['alice', 'second'],
    ]);
    expect(Number.isNaN(Date.parse(list[0]?.createdAt ?? ''))).toBe(false);
    const actors = await memory(['sessions', '--store', store]);
    expect(JSON.parse(actors.out)).toEqual([{ actorId: 'alice' }, { actorId: 'bob' }]);
  });

  it('export from SQLite, import into PostgreSQL, export again: the same events apart from eventIds', async () => {
    const sqlite = sqliteStore();
    const postgres = postgresStore();
    await importExample(sqlite);
    const fromSqlite = await memory(['export', ...session(sqlite)]);
    expect(fromSqlite.code).toBe(EXIT.ok);
    const exported = JSON.parse(fromSqlite.out) as SessionExport;
    expect(withoutIds(exported.events)).toEqual(withoutIds(example.events));

    // Through standard input this time.
    const imported = await memory(['import', '--store', postgres, '-'], fromSqlite.out);
    expect(imported.err).toBe('');
    expect(JSON.parse(imported.out)).toEqual({ actorId: 'alice', sessionId: 'largest-city', imported: 4 });

    const dir = tempDir();
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'again.json');
    const again = await memory(['export', ...session(postgres), '--out', file]);
    expect(again.code).toBe(EXIT.ok);
    expect(JSON.parse(again.out)).toEqual({ actorId: 'alice', sessionId: 'largest-city', exported: 4, out: file });
    const back = JSON.parse(readFileSync(file, 'utf8')) as SessionExport;
    expect({ ...back, events: withoutIds(back.events) }).toEqual({ ...exported, events: withoutIds(exported.events) });
    expect(back.events.map((e) => e.eventId)).not.toEqual(exported.events.map((e) => e.eventId));
  });

  it('import renames with --actor / --session, and refuses a session that already holds events', async () => {
    const store = sqliteStore();
    await importExample(store);
    const renamed = await memory(['import', '--store', store, '--actor', 'carol', '--session', 'copy', EXAMPLE]);
    expect(JSON.parse(renamed.out)).toEqual({ actorId: 'carol', sessionId: 'copy', imported: 4 });
    const shown = await memory(['show', '--store', store, '--actor', 'carol', '--session', 'copy', '--to', 'anthropic-messages']);
    expect(JSON.parse(shown.out)).toEqual(conversation);
    const twice = await memory(['import', '--store', store, EXAMPLE]);
    expect(twice.code).toBe(EXIT.usage);
    expect(twice.err).toMatch(/^error: importSession: session alice\/largest-city already holds events/m);
  });

  it('delete prints the count, after which the session is gone; a second delete counts 0', async () => {
    const store = sqliteStore();
    await importExample(store);
    const del = await memory(['delete', ...session(store)]);
    expect(del.code).toBe(EXIT.ok);
    expect(JSON.parse(del.out)).toEqual({ actorId: 'alice', sessionId: 'largest-city', deleted: 4 });
    expect(JSON.parse((await memory(['sessions', '--store', store, '--actor', 'alice'])).out)).toEqual([]);
    const gone = await memory(['show', ...session(store)]);
    expect(gone.code).toBe(EXIT.usage);
    expect(gone.err).toBe("error: --session: session 'largest-city' of actor 'alice' holds no events (memory sessions --actor alice lists the actor's sessions)\n");
    expect(JSON.parse((await memory(['delete', ...session(store)])).out)).toMatchObject({ deleted: 0 });
  });

  it('an import that is not JSON, or not a session export, exits 2 naming where it is wrong', async () => {
    const store = sqliteStore();
    const notJson = await memory(['import', '--store', store], '{"actorId": ');
    expect(notJson.code).toBe(EXIT.invalid);
    expect(notJson.err).toMatch(/^error: \(root\): input is not valid JSON/);
    const bad = await memory(['import', '--store', store], JSON.stringify({ actorId: 'a', events: [{ payload: 'x' }] }));
    expect(bad.code).toBe(EXIT.invalid);
    expect(bad.err).toBe(['error: sessionId: expected a string', 'error: events[0].payload: expected an array', 'error: events[0].eventTimestamp: expected ISO 8601 text', ''].join('\n'));
    expect(bad.out).toBe('');
  });
});

describe('memory usage errors', () => {
  it.each([
    [[], /^error: memory needs a subcommand: sessions, show, export, import, delete/],
    [['frob', '--store', 'sqlite:x.db'], /^error: unknown memory subcommand 'frob'/],
    [['show', '--actor', 'a', '--session', 's'], /^error: memory show needs --store <url>/],
    [['show', '--store', 'sqlite:x.db', '--session', 's'], /^error: memory show needs --actor/],
    [['export', '--store', 'sqlite:x.db', '--actor', 'a'], /^error: memory export needs --session/],
    [['delete', '--store', 'sqlite:x.db', '--actor', 'a'], /^error: memory delete needs --session/],
    [['show', '--store', 'sqlite:x.db', '--actor', 'a b', '--session', 's'], /^error: --actor: "a b" does not match /],
    [['show', '--store', 'sqlite:x.db', '--actor', 'a', '--session', '-s'], /^error: --session: "-s" does not match /],
    [['show', '--store', 'sqlite:x.db', '--actor', 'a', '--session', 's', '--to', 'a2a'], /^error: --to must be a message format: openai-chat, /],
    [['show', '--store', 'sqlite:x.db', '--actor', 'a', '--session', 's', '--turns', '0'], /^error: --turns must be a whole number of turns, 1 or more \(got '0'\)/],
    [['show', '--store', 'sqlite:x.db', '--actor', 'a', '--session', 's', '--strict'], /^error: --strict applies to show --to/],
    [['export', '--store', 'sqlite:x.db', '--actor', 'a', '--session', 's', '--to', 'gemini'], /^error: --to does not apply to memory export/],
    [['sessions', '--store', 'sqlite:x.db', '--session', 's'], /^error: --session does not apply to memory sessions/],
    [['delete', '--store', 'sqlite:x.db', '--actor', 'a', '--session', 's', 'file.json'], /^error: memory delete takes no FILE/],
    [['import', '--store', 'sqlite:x.db', 'a.json', 'b.json'], /^error: memory import takes at most one FILE/],
    [['show', '--store'], /^error: --store needs a value/],
    [['show', '--bogus'], /^error: unknown option --bogus/],
    [['sessions', '--store', 'nowhere.db'], /^error: memory store URL "nowhere.db": unknown scheme/],
    [['import', '--store', 'memory:', EXAMPLE], /^error: --store memory: lives only as long as one process/],
  ])('%j', async (argv, message) => {
    const r = await memory(argv as string[]);
    expect(r.code).toBe(EXIT.usage);
    expect(r.err).toMatch(message);
    expect(r.out).toBe('');
  });

  it('never opens the store for bad usage: no file is created', async () => {
    const dir = tempDir();
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'never.db');
    expect((await memory(['show', '--store', `sqlite:${file}`, '--actor', 'a'])).code).toBe(EXIT.usage);
    expect(existsSync(file)).toBe(false);
  });

  it('never prints a store password', async () => {
    for (const store of ['postgres://ann:s3cret-pw@127.0.0.1:1/test', 'postgresql://ann:s3cret-pw@127.0.0.1:1/test?schema=bad-name', 'mysql://ann:s3cret-pw@127.0.0.1/x']) {
      const r = await memory(['sessions', '--store', store]);
      expect(r.code, store).toBe(EXIT.usage);
      expect(r.err).toMatch(/^error: /);
      expect(r.err).not.toContain('s3cret-pw');
    }
  });

  it('memory --help prints the memory usage', async () => {
    const r = await memory(['--help']);
    expect(r.code).toBe(EXIT.ok);
    expect(r.out).toMatch(/^ {2}interlingua memory show {5}--store <url> --actor A --session S \[--to <format>\]/m);
  });
});

// The installed entry point, as a newcomer runs the README's commands (needs dist/ from npm run build).
describe.skipIf(!existsSync(join(REPO_ROOT, 'dist/cli/memory-command.js')))('bin/interlingua.js memory', () => {
  it('imports the example into a SQLite file and shows it as OpenAI Chat messages', () => {
    const store = sqliteStore();
    const bin = join(REPO_ROOT, 'bin/interlingua.js');
    const imported = spawnSync(process.execPath, [bin, 'memory', 'import', '--store', store, EXAMPLE], { encoding: 'utf8' });
    expect(imported.stderr).toBe('');
    expect(imported.status).toBe(0);
    expect(JSON.parse(imported.stdout)).toEqual({ actorId: 'alice', sessionId: 'largest-city', imported: 4 });
    const shown = spawnSync(process.execPath, [bin, 'memory', 'show', ...session(store), '--to', 'openai-chat'], { encoding: 'utf8' });
    expect(shown.status).toBe(0);
    const messages = JSON.parse(shown.stdout) as { role: string; tool_calls?: { id: string }[] }[];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(messages[1]?.tool_calls?.[0]?.id).toBe('toolu_01YGzqpRE16Vricda3Aqcejo');
    expect(shown.stderr).toMatch(/^loss: dropped foreign-reasoning at messages\[1\]\.content\[0\]/m);
  });
});
