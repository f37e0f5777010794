/**
 * The package as a user gets it: `npm pack` (which builds dist/ through `prepare`, as `npm publish`
 * does), then a fresh project whose node_modules holds the unpacked tarball and only the packages
 * a scenario installs. Those are linked from this repository's node_modules (which `npm ci` has
 * just filled), so nothing is downloaded and no native module is built again; the tarball's own
 * `dependencies` are read from its package.json, so a missing declaration shows here.
 */
import { execFileSync, spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
/** Every temp folder made here, for `cleanUp`. */
const made: string[] = [];

function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function cleanUp(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
const NODE_MODULES = path.join(REPO, 'node_modules');
const TSC = path.join(NODE_MODULES, 'typescript', 'bin', 'tsc');

export interface Packed {
  /** The unpacked tarball (its `package/` folder). */
  dir: string;
  manifest: { name: string; dependencies?: Record<string, string>; optionalDependencies?: Record<string, string>; peerDependencies?: Record<string, string>; exports: Record<string, unknown> };
  /** Every file the tarball holds, relative to the package root. */
  files: string[];
}

/** Packs the repository into a temp folder and unpacks it there. */
export function pack(): Packed {
  const out = tempDir('interlingua-pack-');
  const json = execFileSync('npm', ['pack', '--json', '--pack-destination', out], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  // `prepare` (tsc) may print before npm's JSON; the JSON is the last top-level array.
  const report = JSON.parse(json.slice(json.lastIndexOf('\n[') + 1)) as { filename: string; files: { path: string }[] }[];
  const first = report[0];
  if (first === undefined) throw new Error(`npm pack reported no tarball: ${json}`);
  execFileSync('tar', ['-xzf', path.join(out, first.filename), '-C', out]);
  const dir = path.join(out, 'package');
  return { dir, manifest: JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Packed['manifest'], files: first.files.map((f) => f.path) };
}

/** Links `name` from the repository's node_modules into `modules` (scoped names get their scope folder). */
function link(modules: string, name: string): void {
  const from = realpathSync(path.join(NODE_MODULES, name));
  const to = path.join(modules, name);
  mkdirSync(path.dirname(to), { recursive: true });
  symlinkSync(from, to, 'dir');
}

/**
 * A fresh ESM project holding a copy of the unpacked package and `extra` packages besides its
 * `dependencies`; `files` are written into it.
 */
export function project(packed: Packed, name: string, extra: readonly string[], files: Record<string, string>): string {
  const root = tempDir(`interlingua-${name}-`);
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: `check-${name}`, private: true, type: 'module' }, null, 2));
  const modules = path.join(root, 'node_modules');
  mkdirSync(modules);
  // A copy, not a link: Node and tsc resolve a linked package's imports from where it really is.
  cpSync(packed.dir, path.join(modules, 'interlingua'), { recursive: true });
  for (const dep of [...Object.keys(packed.manifest.dependencies ?? {}), ...extra]) link(modules, dep);
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(root, file), text);
  return root;
}

export type Resolution = 'nodenext' | 'bundler';

export interface Checked {
  resolution: Resolution;
  status: number | null;
  output: string;
}

/**
 * Type-checks `files` in `root` with skipLibCheck off under one module resolution, as a Node
 * project would (Node's types from @types/node, which the project must hold); resolves with tsc's
 * output.
 */
export function typecheck(root: string, resolution: Resolution, files: readonly string[], lib: readonly string[] = ['ES2023']): Promise<Checked> {
  const compilerOptions = {
    target: 'ES2022',
    lib,
    ...(resolution === 'nodenext' ? { module: 'nodenext', moduleResolution: 'nodenext' } : { module: 'esnext', moduleResolution: 'bundler' }),
    strict: true,
    skipLibCheck: false,
    noEmit: true,
    // Only what the project installed: no other @types package is picked up by accident.
    types: ['node'],
  };
  const config = path.join(root, `tsconfig.${resolution}.json`);
  writeFileSync(config, JSON.stringify({ compilerOptions, files }, null, 2));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSC, '-p', config], { cwd: root });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ resolution, status, output }));
  });
}

/** Runs a script of the project with Node; returns its result. */
export function run(root: string, script: string, args: readonly string[] = []): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [script, ...args], { cwd: root, encoding: 'utf8' });
}
