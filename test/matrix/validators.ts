/**
 * The target validators of the matrix, loaded by format id. Each is a module of
 * test/support/validators/ exporting `validate<Name>(kind, value): string[]` (and optionally a
 * batch form taking many bodies at once). Modules are loaded dynamically so a validator that is
 * not written yet is reported as "not validated yet" instead of breaking the matrix.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type BodyKind = 'request' | 'response';
export type BatchValidate = (items: readonly { kind: BodyKind; value: unknown }[]) => string[][];

export type LoadedValidator = { status: 'ok'; file: string; validate: BatchValidate } | { status: 'missing'; file: string; reason: string };

const DIR = join(dirname(fileURLToPath(import.meta.url)), '../support/validators');

/** `openai-responses` -> `validateOpenaiResponses`. */
export function validatorName(format: string): string {
  return `validate${format
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')}`;
}

const cache = new Map<string, Promise<LoadedValidator>>();

async function load(format: string): Promise<LoadedValidator> {
  const file = `test/support/validators/${format}.ts`;
  if (!existsSync(join(DIR, `${format}.ts`))) return { status: 'missing', file, reason: `no ${file}` };
  let mod: Record<string, unknown>;
  try {
    // A variable specifier: the compiler must not require the file to exist.
    const specifier = `../support/validators/${format}.js`;
    mod = (await import(specifier)) as Record<string, unknown>;
  } catch (e) {
    return { status: 'missing', file, reason: `${file} does not load: ${(e as Error).message.split('\n')[0] ?? ''}` };
  }
  const name = validatorName(format);
  const batch = mod[`${name}Batch`];
  if (typeof batch === 'function') return { status: 'ok', file, validate: batch as BatchValidate };
  const single = mod[name];
  if (typeof single !== 'function') return { status: 'missing', file, reason: `${file} has no export ${name}` };
  const one = single as (kind: BodyKind, value: unknown) => string[];
  return {
    status: 'ok',
    file,
    validate: (items) =>
      items.map((it) => {
        try {
          return one(it.kind, it.value);
        } catch (e) {
          return [`validator threw: ${(e as Error).message}`];
        }
      }),
  };
}

export function loadValidator(format: string): Promise<LoadedValidator> {
  let hit = cache.get(format);
  if (!hit) {
    hit = load(format);
    cache.set(format, hit);
  }
  return hit;
}
