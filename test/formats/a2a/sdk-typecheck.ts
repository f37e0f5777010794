/**
 * Type-checks JSON values against @a2a-js/sdk's v1.0 types with the TypeScript compiler, in
 * memory. The SDK types its objects as they live in memory (enums as numbers, a Part's content as
 * a `$case` union, bytes as Buffer) and writes JSON with `toJSON`; the header below derives the
 * JSON form from those very types — enum member names as strings, each `$case` as its own key,
 * bytes as base64 text, every field optional (ProtoJSON leaves defaults out) — so a field the SDK
 * does not have, a role or state it does not know, or a wrong type is a compile error. Each value
 * becomes `export const cN = <json> satisfies <Type>;` (object literals get excess-property checks).
 */
import { join } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from '../../support/captures.js';

export interface TypeCase {
  name: string;
  type: 'StreamResponseJson' | 'MessageJson' | 'TaskJson' | 'SendMessageRequestJson';
  value: unknown;
}

// Inside the repo so '@a2a-js/sdk' resolves from node_modules; never written to disk.
const VIRTUAL = join(REPO_ROOT, 'test/formats/a2a/__a2a_sdk_oracle__.ts');

const HEADER = [
  "import type { Message, Part, Role, SendMessageRequest, StreamResponse, Task, TaskState } from '@a2a-js/sdk';",
  // Enum members as ProtoJSON writes them; the zero values mean "unset" and are not written.
  "type StateJson = Exclude<keyof typeof TaskState, 'UNRECOGNIZED' | 'TASK_STATE_UNSPECIFIED'>;",
  "type RoleJson = Exclude<keyof typeof Role, 'UNRECOGNIZED' | 'ROLE_UNSPECIFIED'>;",
  'type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;',
  // Struct fields (metadata, data) hold any JSON.
  'type Struct = { [key: string]: unknown };',
  'type J<T> = Same<T, TaskState> extends true ? StateJson : Same<T, Role> extends true ? RoleJson : T extends Buffer ? string',
  '  : T extends string | number | boolean ? T : T extends readonly (infer U)[] ? J<U>[] : T extends { $case: string } ? never : T extends object ? Obj<T> : never;',
  'type Content<T> = T extends { content?: infer C } ? NonNullable<C> : never;',
  'type Payload<T> = T extends { payload?: infer C } ? NonNullable<C> : never;',
  'type Field<K, V> = K extends \'metadata\' ? Struct : J<NonNullable<V>>;',
  // A oneof becomes one key per case; any other field keeps its name.
  'type Obj<T> = { [K in keyof T as K extends \'content\' | \'payload\' ? never : K]?: Field<K, T[K]> }',
  '  & { [C in Content<T> as C extends { $case: infer N extends string } ? N : never]?: C extends { $case: \'data\' } ? unknown : J<C extends { value: infer V } ? V : never> }',
  '  & { [C in Payload<T> as C extends { $case: infer N extends string } ? N : never]?: J<C extends { value: infer V } ? V : never> };',
  'type StreamResponseJson = Obj<StreamResponse>;',
  'type MessageJson = Obj<Message>;',
  'type TaskJson = Obj<Task>;',
  'type SendMessageRequestJson = Obj<SendMessageRequest>;',
  'type PartJson = Obj<Part>;',
  'export type { PartJson };',
];

function compilerOptions(): ts.CompilerOptions {
  const configPath = join(REPO_ROOT, 'tsconfig.json');
  const read = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, REPO_ROOT, undefined, configPath);
  return { ...parsed.options, noEmit: true };
}

/** The compile errors of each case, by name ([] when it type-checks). */
export function typecheck(cases: TypeCase[]): Map<string, string[]> {
  const lines = [...HEADER, ...cases.map((c, i) => `export const c${i} = ${JSON.stringify(c.value)} satisfies ${c.type};`)];
  const text = lines.join('\n');
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, lang, ...rest) => (file === VIRTUAL ? ts.createSourceFile(file, text, lang, true) : getSourceFile(file, lang, ...rest));
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
