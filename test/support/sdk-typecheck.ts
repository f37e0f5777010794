/**
 * The compiler oracle behind the SDK type checks: each value becomes
 * `export const cN = <json> satisfies <Type>;` after a header of imports and type aliases, in a
 * virtual module (never written to disk) compiled in memory with the project's tsconfig. An object
 * literal under `satisfies` gets excess-property and literal checks, so an unknown field, a wrong
 * type or an unknown enum value is a compile error, reported against its value's name.
 */
import { join } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from './captures.js';

function compilerOptions(): ts.CompilerOptions {
  const configPath = join(REPO_ROOT, 'tsconfig.json');
  const read = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, REPO_ROOT, undefined, configPath);
  return { ...parsed.options, noEmit: true };
}

/**
 * The compile errors of each case, by name ([] when it type-checks). `virtual` is the module's
 * path: inside the repo, so the SDK's package resolves from node_modules.
 */
export function typecheckCases(header: readonly string[], virtual: string, cases: readonly { name: string; type: string; value: unknown }[]): Map<string, string[]> {
  const lines = [...header, ...cases.map((c, i) => `export const c${i} = ${JSON.stringify(c.value)} satisfies ${c.type};`)];
  const text = lines.join('\n');
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, lang, ...rest) => (file === virtual ? ts.createSourceFile(file, text, lang, true) : getSourceFile(file, lang, ...rest));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => file === virtual || fileExists(file);
  const readFile = host.readFile.bind(host);
  host.readFile = (file) => (file === virtual ? text : readFile(file));
  const program = ts.createProgram({ rootNames: [virtual], options, host });
  const source = program.getSourceFile(virtual);
  const out = new Map<string, string[]>(cases.map((c) => [c.name, []]));
  for (const d of ts.getPreEmitDiagnostics(program, source)) {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
    const c = cases[line - header.length];
    if (c === undefined) throw new Error(`oracle header does not compile: ${message}`);
    out.get(c.name)?.push(message);
  }
  return out;
}
