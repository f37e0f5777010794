/**
 * Type-checks JSON values against the official @anthropic-ai/sdk types with the TypeScript
 * compiler, in memory: each value becomes `export const cN = <json> satisfies <Type>;` in a virtual
 * module compiled with the project's tsconfig. An object literal under `satisfies` gets excess
 * property checks and literal (enum) checks, so an unknown field, a wrong type or an unknown
 * `type` / `role` / `stop_reason` value is a compile error, reported against its value.
 */
import { join } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from '../../support/captures.js';

export interface TypeCase {
  name: string;
  /** A type name from the header below. */
  type: 'Request' | 'Response' | 'BetaRequest' | 'BetaResponse';
  value: unknown;
}

// Inside the repo so '@anthropic-ai/sdk' resolves from node_modules; never written to disk.
const VIRTUAL = join(REPO_ROOT, 'test/formats/anthropic-messages/__sdk_oracle__.ts');

const HEADER = [
  "import type { Message, MessageCreateParams } from '@anthropic-ai/sdk/resources/messages';",
  "import type { BetaMessage, MessageCreateParams as BetaParams } from '@anthropic-ai/sdk/resources/beta/messages';",
  // The SDK types API version 2026-10-21 (it sends that anthropic-version), which removed the
  // sampling parameters; our bodies and the captures are 2023-06-01 bodies, where they are valid.
  'type Sampling = { temperature?: number; top_p?: number; top_k?: number };',
  // A response whose fields the SDK types as required but newer than the captures may lack them:
  // required-but-nullable fields (container, diagnostics, stop_details, inference_geo ...) read
  // as null when absent in every client; `caller` (programmatic tool calling) and
  // `web_fetch_requests` (web fetch tool) came later. Everything else stays exact.
  "type Newer = 'caller' | 'web_fetch_requests';",
  'type Absent<T> = T extends readonly (infer U)[] ? Absent<U>[] : T extends object',
  '  ? { [K in keyof T as null extends T[K] ? K : K extends Newer ? K : never]?: Absent<T[K]> } & { [K in keyof T as null extends T[K] ? never : K extends Newer ? never : K]: Absent<T[K]> }',
  '  : T;',
  'type Request = MessageCreateParams & Sampling;',
  'type Response = Absent<Message>;',
  'type BetaRequest = BetaParams & Sampling;',
  'type BetaResponse = Absent<BetaMessage>;',
];

function compilerOptions(): ts.CompilerOptions {
  const configPath = join(REPO_ROOT, 'tsconfig.json');
  const read = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, REPO_ROOT, undefined, configPath);
  return { ...parsed.options, noEmit: true };
}

/** The compile errors of each case (by name); a case that type-checks has none. */
export function typecheck(cases: TypeCase[]): Map<string, string[]> {
  const lines = [...HEADER, ...cases.map((c, i) => `export const c${i} = ${JSON.stringify(c.value)} satisfies ${c.type};`)];
  const text = lines.join('\n');
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, lang, ...rest) =>
    file === VIRTUAL ? ts.createSourceFile(file, text, lang, true) : getSourceFile(file, lang, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => file === VIRTUAL || fileExists(file);
  const readFile = host.readFile.bind(host);
  host.readFile = (file) => (file === VIRTUAL ? text : readFile(file));

  const program = ts.createProgram({ rootNames: [VIRTUAL], options, host });
  const source = program.getSourceFile(VIRTUAL);
  const out = new Map<string, string[]>(cases.map((c) => [c.name, []]));
  for (const d of ts.getPreEmitDiagnostics(program, source)) {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
    const c = cases[line - HEADER.length];
    if (c === undefined) throw new Error(`oracle header does not compile: ${message}`);
    out.get(c.name)?.push(message);
  }
  return out;
}
