/**
 * Type-checks JSON values against the official @anthropic-ai/sdk types with the TypeScript
 * compiler, in memory: each value becomes `export const cN = <json> satisfies <Type>;` in a virtual
 * module compiled with the project's tsconfig. An object literal under `satisfies` gets excess
 * property checks and literal (enum) checks, so an unknown field, a wrong type or an unknown
 * `type` / `role` / `stop_reason` value is a compile error, reported against its value.
 */
import { join } from 'node:path';
import { REPO_ROOT } from '../../support/captures.js';
import { typecheckCases } from '../../support/sdk-typecheck.js';

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

/** The compile errors of each case, by name ([] when it type-checks). */
export function typecheck(cases: TypeCase[]): Map<string, string[]> {
  return typecheckCases(HEADER, VIRTUAL, cases);
}
