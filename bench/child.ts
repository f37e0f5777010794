/**
 * A bench's measuring child: `node <flags> --import tsx <script> <args>`, run to the end, its last
 * stdout line read as JSON. A child measures in a process of its own, so its GC state and JIT are
 * the ones the bench sets up, not the parent's.
 */
import { spawnSync } from 'node:child_process';

export function runTsChild<T>(script: string, args: readonly string[], flags: readonly string[] = [], timeoutMs = 180_000): T {
  const r = spawnSync(process.execPath, [...flags, '--import', 'tsx', script, ...args], { encoding: 'utf8', timeout: timeoutMs });
  if (r.status !== 0) throw new Error(`child ${args.join(' ')} failed: ${r.stderr.slice(-600)}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1) as string) as T;
}
