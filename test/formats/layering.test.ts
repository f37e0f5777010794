/**
 * The layers of src/: model/ stands alone; formats/shared/ builds on model/ and codec.ts; each
 * format folder builds on model/, shared/, codec.ts and registry.ts, never on another format's
 * folder (a helper two formats use belongs in shared/; a whole other codec is reached through the
 * registry). Every import form counts: static, type-only, re-export, dynamic and `import()` types.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const FORMATS = path.join(SRC, 'formats');
const MODEL = path.join(SRC, 'model');
const SHARED = path.join(FORMATS, 'shared');

/** Every module specifier a source text names. */
export function specifiers(fileName: string, text: string): string[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push(node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      out.push(node.moduleReference.expression.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      // A computed specifier cannot be checked: named so that it is looked at.
      out.push(arg !== undefined && ts.isStringLiteralLike(arg) ? arg.text : `<computed import in ${fileName}>`);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      out.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

const inside = (dir: string, file: string): boolean => file === dir || file.startsWith(dir + path.sep);

/** The source file a relative specifier names (`./x.js` is `./x.ts`), or undefined for a package. */
function target(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return spec.startsWith('<computed') ? spec : undefined;
  return path.resolve(path.dirname(from), spec).replace(/\.js$/, '.ts');
}

/** Whether `file` may import `to` (an absolute source path), by the layer `file` is in. */
export function allowed(file: string, to: string): boolean {
  if (inside(MODEL, file)) return inside(MODEL, to);
  if (inside(SHARED, file)) return inside(MODEL, to) || inside(SHARED, to) || to === path.join(FORMATS, 'codec.ts');
  const rel = path.relative(FORMATS, file).split(path.sep);
  if (rel.length < 2) return true; // formats/*.ts themselves (codec, registry, convert) compose the folders
  const own = path.join(FORMATS, rel[0] as string);
  return (
    inside(own, to) ||
    inside(SHARED, to) ||
    inside(MODEL, to) ||
    to === path.join(FORMATS, 'codec.ts') ||
    to === path.join(FORMATS, 'registry.ts')
  );
}

/** `file: import` for each import of `file` its layer does not allow. */
export function violations(file: string, text: string): string[] {
  const out: string[] = [];
  for (const spec of specifiers(file, text)) {
    const to = target(file, spec);
    if (to !== undefined && !allowed(file, to)) out.push(`${path.relative(SRC, file)}: ${spec}`);
  }
  return out;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

function check(files: string[]): string[] {
  return files.flatMap((f) => violations(f, readFileSync(f, 'utf8')));
}

const formatDirs = readdirSync(FORMATS).filter((d) => d !== 'shared' && statSync(path.join(FORMATS, d)).isDirectory());

describe('layering of src/', () => {
  it('sees every format folder and its files', () => {
    expect(formatDirs).toEqual(expect.arrayContaining(['a2a', 'ag-ui', 'agent-input', 'agentcore-memory', 'anthropic-messages', 'bedrock-converse', 'gemini', 'openai-chat', 'openai-responses']));
    for (const dir of formatDirs) expect(sources(path.join(FORMATS, dir)).length, dir).toBeGreaterThan(3);
  });

  it.each(formatDirs)('format folder %s imports only itself, ../shared/, ../../model/, ../codec.js and ../registry.js', (dir) => {
    expect(check(sources(path.join(FORMATS, dir)))).toEqual([]);
  });

  it('formats/shared/ imports only itself, model/ and codec.ts', () => {
    expect(check(sources(SHARED))).toEqual([]);
  });

  it('model/ imports nothing outside model/', () => {
    expect(check(sources(MODEL))).toEqual([]);
  });

  it('names the file and the import of every form that crosses a layer', () => {
    const a2a = path.join(FORMATS, 'a2a', 'x.ts');
    const text = [
      "import { a } from '../openai-chat/content-encode.js';",
      "import type { B } from '../anthropic-messages/tool-names.js';",
      "export { c } from '../gemini/tools.js';",
      "const d = await import('../bedrock-converse/index.js');",
      "type E = import('../ag-ui/schema.js').E;",
      "import { ok1 } from '../shared/stash.js';",
      "import { ok2 } from '../../model/json.js';",
      "import { ok3 } from '../registry.js';",
      "import { ok4 } from './parts.js';",
      "import { z } from 'zod';",
      "import { bad } from '../convert.js';",
    ].join('\n');
    expect(violations(a2a, text)).toEqual([
      'formats/a2a/x.ts: ../openai-chat/content-encode.js',
      'formats/a2a/x.ts: ../anthropic-messages/tool-names.js',
      'formats/a2a/x.ts: ../gemini/tools.js',
      'formats/a2a/x.ts: ../bedrock-converse/index.js',
      'formats/a2a/x.ts: ../ag-ui/schema.js',
      'formats/a2a/x.ts: ../convert.js',
    ]);
    expect(violations(path.join(SHARED, 'x.ts'), "import { r } from '../registry.js';")).toEqual(['formats/shared/x.ts: ../registry.js']);
    expect(violations(path.join(MODEL, 'x.ts'), "import type { Codec } from '../formats/codec.js';")).toEqual(['model/x.ts: ../formats/codec.js']);
  });
});
