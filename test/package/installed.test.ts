/**
 * The published package, installed into fresh projects (install.ts), as users get it:
 * - with only its `dependencies` (no optional peer, and better-sqlite3 absent as when its native
 *   build failed): every export path that is not an adapter type-checks with skipLibCheck off under
 *   nodenext and bundler resolution, a conversion runs (API and CLI), and a sqlite: store says
 *   what to install;
 * - with its optional dependency too (what `npm install interlingua` gives): a sqlite: memory call;
 * - each adapter path with only its own peer: it type-checks the same way and loads.
 * Slow (it builds and packs): `npm run test:package`, run by .ci/run.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, pack, project, REPO, run, typecheck, type Packed, type Resolution } from './install.js';

/** Every project is a Node project with Node's types (our declarations use web streams, as Node's globals). */
const NODE_TYPES = '@types/node';

/** Export paths that exist for an optional peer, and that peer. */
const ADAPTERS: Record<string, string> = {
  './memory/strands': '@strands-agents/sdk',
  './memory/vercel-ai': '@ai-sdk/provider',
};

/**
 * The lib an adapter's check needs besides ES2023: Strands' own declarations (through
 * @modelcontextprotocol/sdk) name DOM's `HeadersInit`, so a Strands project needs the DOM lib
 * whether or not it uses interlingua.
 */
const ADAPTER_LIB: Record<string, string[]> = { './memory/strands': ['DOM'] };

const RESOLUTIONS: Resolution[] = ['nodenext', 'bundler'];
const example = readFileSync(path.join(REPO, 'examples', 'anthropic-request.json'), 'utf8');

let packed: Packed;
let corePaths: string[];

afterAll(cleanUp);

beforeAll(() => {
  packed = pack();
  corePaths = Object.keys(packed.manifest.exports).filter((p) => p !== './package.json' && !(p in ADAPTERS));
});

const specifier = (exportPath: string): string => `interlingua${exportPath.slice(1)}`;

/** A module that imports every name of the given paths, plus typed uses of a few. */
function importsOf(paths: readonly string[], uses = ''): string {
  return `${paths.map((p, i) => `import * as path${i} from '${specifier(p)}';`).join('\n')}\nexport const all = [${paths.map((_, i) => `path${i}`).join(', ')}];\n${uses}`;
}

const CORE_USES = `
import { convert, type ConvertResult } from 'interlingua';
import { openMemory, MissingPackageError, type OpenOptions } from 'interlingua/memory';
export const result: ConvertResult = convert({}, { from: 'openai-chat', to: 'anthropic-messages' });
export const options: OpenOptions = { expiryDays: 30, agentcore: { clientConfig: { region: 'us-east-1' } } };
export const opened: Promise<{ close(): Promise<void> }> = openMemory('memory:');
export const missing: string = new MissingPackageError('x', 'y', 'z').installCommand;
`;

/** Converts the README's example with the installed package, then tries a sqlite: store. */
const RUN_CORE = `
import { readFileSync } from 'node:fs';
import { convert } from 'interlingua';
import { openMemory, MissingPackageError } from 'interlingua/memory';
const { value, losses } = convert(JSON.parse(readFileSync('example.json', 'utf8')), { from: 'anthropic-messages', to: 'openai-chat' });
const out = { converted: value, losses: losses.map((l) => l.code) };
try {
  const mem = await openMemory('sqlite:./memory.db');
  await mem.append({ actorId: 'alice', sessionId: 's1', format: 'openai-chat', messages: [{ role: 'user', content: 'Hello' }, { role: 'assistant', content: 'Hi, Alice.' }] });
  out.recalled = await mem.lastTurns({ actorId: 'alice', sessionId: 's1', k: 1, format: 'openai-chat' });
  await mem.close();
} catch (err) {
  out.error = { name: err.name, code: err.code, missing: err instanceof MissingPackageError, packageName: err.packageName, installCommand: err.installCommand, message: err.message };
}
process.stdout.write(JSON.stringify(out));
`;

/** Both resolutions at once (two tsc processes): each must print nothing and exit 0. */
async function expectTypecheck(root: string, files: readonly string[], lib: readonly string[] = []): Promise<void> {
  const results = await Promise.all(RESOLUTIONS.map((r) => typecheck(root, r, files, ['ES2023', ...lib])));
  expect(results).toEqual(RESOLUTIONS.map((resolution) => ({ resolution, status: 0, output: '' })));
}

describe('the packed package', () => {
  it('holds dist/ and bin/, not the sources or tests', () => {
    expect(packed.files).toEqual(expect.arrayContaining(['package.json', 'bin/interlingua.js', 'dist/index.js', 'dist/index.d.ts', 'dist/memory/index.d.ts']));
    expect(packed.files.filter((f) => f.startsWith('src/') || f.startsWith('test/'))).toEqual([]);
    // better-sqlite3 is optional: a failed native build does not fail `npm install interlingua`.
    expect(packed.manifest.dependencies).not.toHaveProperty('better-sqlite3');
    expect(packed.manifest.optionalDependencies).toHaveProperty('better-sqlite3');
    // Every adapter's peer is an optional peer.
    for (const peer of Object.values(ADAPTERS)) expect(packed.manifest.peerDependencies).toHaveProperty(peer);
    expect(corePaths).toEqual(expect.arrayContaining(['.', './memory']));
  });

  describe('with its dependencies only (no optional peer, no better-sqlite3)', () => {
    let root: string;
    beforeAll(() => {
      root = project(packed, 'bare', [NODE_TYPES], { 'check.ts': importsOf(corePaths, CORE_USES), 'run.mjs': RUN_CORE, 'example.json': example });
    });

    it('every path but the adapters type-checks with skipLibCheck off (nodenext and bundler)', async () => {
      await expectTypecheck(root, ['check.ts']);
    });

    it('converts, and a sqlite: store names the package to install', () => {
      const result = run(root, 'run.mjs');
      expect(result.stderr).toBe('');
      const out = JSON.parse(result.stdout) as { converted: { messages: unknown[] }; losses: string[]; error: Record<string, unknown> };
      expect(out.converted.messages.length).toBeGreaterThan(0);
      expect(out.losses).toContain('foreign-reasoning');
      expect(out.error).toMatchObject({ name: 'MissingPackageError', code: 'missing_package', missing: true, packageName: 'better-sqlite3', installCommand: 'npm install better-sqlite3' });
      expect(out.error['message']).toMatch(/^sqlite: stores need the better-sqlite3 package \(npm install better-sqlite3\), which could not be loaded: Cannot find package 'better-sqlite3'/);
    });

    it("runs the CLI's example conversion", () => {
      const result = run(root, 'node_modules/interlingua/bin/interlingua.js', ['convert', '--from', 'anthropic-messages', '--to', 'openai-chat', 'example.json']);
      expect(result.status).toBe(0);
      expect((JSON.parse(result.stdout) as { model: string }).model).toBe('claude-sonnet-4-0');
      expect(result.stderr).toMatch(/^loss: dropped foreign-reasoning at messages\[1\]\.content\[0\]/);
    });
  });

  it('with its optional dependency (what npm install gives), a sqlite: store keeps and gives back messages', () => {
    const root = project(packed, 'sqlite', Object.keys(packed.manifest.optionalDependencies ?? {}), { 'run.mjs': RUN_CORE, 'example.json': example });
    const result = run(root, 'run.mjs');
    expect(result.stderr).toBe('');
    const out = JSON.parse(result.stdout) as { converted: { messages: unknown[] }; recalled?: unknown; error?: unknown };
    expect(out.error).toBeUndefined();
    expect(out.converted.messages.length).toBeGreaterThan(0);
    expect(out.recalled).toEqual([
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Hi, Alice.' },
    ]);
  });

  describe.each(Object.entries(ADAPTERS))('the adapter path %s with only its peer %s', (exportPath, peer) => {
    let root: string;
    beforeAll(() => {
      const load = `const m = await import('${specifier(exportPath)}');\nprocess.stdout.write(JSON.stringify(Object.keys(m).sort()));\n`;
      root = project(packed, exportPath.split('/').pop() as string, [NODE_TYPES, peer], { 'check.ts': importsOf([exportPath]), 'load.mjs': load });
    });

    it('type-checks with skipLibCheck off (nodenext and bundler)', async () => {
      await expectTypecheck(root, ['check.ts'], ADAPTER_LIB[exportPath]);
    });

    it('loads', () => {
      const result = run(root, 'load.mjs');
      expect(result.stderr).toBe('');
      expect((JSON.parse(result.stdout) as string[]).length).toBeGreaterThan(0);
    });
  });
});
