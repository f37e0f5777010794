/**
 * Type oracle for Anthropic Messages bodies: the official SDK's types (`@anthropic-ai/sdk`
 * MessageCreateParams for requests, Message for responses) checked by the TypeScript compiler.
 * The SDK ships types only (no runtime schema), so each body becomes an object literal assigned
 * to the SDK type in one generated source file, and one compiler program checks them all: object
 * literal checks refuse unknown keys, wrong discriminants, missing required members and wrong
 * value types, anywhere in the body.
 *
 * The SDK (1.x) speaks API version 2026-10-21, its default `anthropic-version`: that version has
 * no `temperature`, `top_p` or `top_k` (a 400 if sent), so a request carrying them fails here even
 * though version 2023-06-01 accepts them. That is deliberate: the oracle is the official SDK.
 *
 * Responses: the SDK declares some members as required but nullable (`container`, most `usage`
 * counters) because the API always sends them; a body that leaves one out reads the same to every
 * client, so such members are optional here (`Relax`). So are the members that real responses of
 * API version 2023-06-01 do not carry (`caller` on tool calls, `web_fetch_requests` in
 * `usage.server_tool_use`), found by checking the recorded responses. Nothing else is relaxed.
 *
 * The generated file is virtual (never written) and placed in this folder so that module
 * resolution finds the SDK in the repository's node_modules.
 */
import { join } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from '../captures.js';

export type BodyKind = 'request' | 'response';

const VIRTUAL_FILE = join(REPO_ROOT, 'test/support/validators/__anthropic-oracle__.ts');

const HEADER = `import type Anthropic from '@anthropic-ai/sdk';
type Old = 'caller' | 'web_fetch_requests';
type Relax<T> = T extends readonly (infer U)[]
  ? Relax<U>[]
  : T extends object
    ? { [K in keyof T as null extends T[K] ? K : K extends Old ? K : never]?: Relax<T[K]> } & { [K in keyof T as null extends T[K] ? never : K extends Old ? never : K]: Relax<T[K]> }
    : T;
type Req = Anthropic.MessageCreateParams;
type Res = Relax<Anthropic.Message>;
`;

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  types: [],
};

/** The diagnostic's text on one line; long chains keep their start and their most specific end. */
function messageText(d: ts.Diagnostic): string {
  const text = ts.flattenDiagnosticMessageText(d.messageText, ' ').replace(/\s+/g, ' ');
  return text.length > 400 ? `${text.slice(0, 150)} ... ${text.slice(-250)}` : text;
}

/**
 * Checks many bodies in one compiler run; returns, per body in order, one message per problem
 * (`line "<source line>": <compiler message>`), empty when the body fits the SDK type.
 */
export function validateAnthropicMessagesBatch(items: readonly { kind: BodyKind; value: unknown }[]): string[][] {
  // One declaration per body; `starts[i]` is the 0-based line where body i begins.
  const starts: number[] = [];
  let line = HEADER.split('\n').length - 1;
  const decls = items.map((item, i) => {
    const decl = `export const v${i}: ${item.kind === 'request' ? 'Req' : 'Res'} = ${JSON.stringify(item.value, null, 1) ?? 'undefined'};`;
    starts.push(line);
    line += decl.split('\n').length;
    return decl;
  });
  const text = `${HEADER}${decls.join('\n')}\n`;
  const source = ts.createSourceFile(VIRTUAL_FILE, text, ts.ScriptTarget.ES2022, true);
  const host = ts.createCompilerHost(OPTIONS, true);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, onError, create) => (name === VIRTUAL_FILE ? source : getSourceFile(name, version, onError, create));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === VIRTUAL_FILE || fileExists(name);
  const program = ts.createProgram([VIRTUAL_FILE], OPTIONS, host);
  const out: string[][] = items.map(() => []);
  const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
  const textLines = text.split('\n');
  for (const d of diagnostics) {
    if (d.start === undefined) {
      for (const list of out) list.push(messageText(d));
      continue;
    }
    const at = source.getLineAndCharacterOfPosition(d.start).line;
    // The body whose declaration starts last at or before this line.
    let index = -1;
    for (let lo = 0, hi = starts.length - 1; lo <= hi; ) {
      const mid = (lo + hi) >> 1;
      if ((starts[mid] as number) <= at) {
        index = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    const snippet = (textLines[at] ?? '').trim().slice(0, 120);
    if (index < 0) for (const list of out) list.push(`oracle header: ${messageText(d)}`);
    else out[index]?.push(`line ${at - (starts[index] as number) + 1} "${snippet}": ${messageText(d)}`);
  }
  return out;
}

/** One body; prefer the batch form for many (each call builds a compiler program). */
export function validateAnthropicMessages(kind: BodyKind, value: unknown): string[] {
  return validateAnthropicMessagesBatch([{ kind, value }])[0] ?? [];
}
