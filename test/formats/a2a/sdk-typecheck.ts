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
import { REPO_ROOT } from '../../support/captures.js';
import { typecheckCases } from '../../support/sdk-typecheck.js';

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

/** The compile errors of each case, by name ([] when it type-checks). */
export function typecheck(cases: TypeCase[]): Map<string, string[]> {
  return typecheckCases(HEADER, VIRTUAL, cases);
}
