/**
 * The official @anthropic-ai/sdk types as an oracle over what we write: every Anthropic body we
 * produce from the real captures in test/fixtures — Anthropic round trips and OpenAI Chat bodies
 * converted to Anthropic, plus agentgateway's Chat Completions vectors — is compiled as `<json> satisfies MessageCreateParams` (requests) or
 * `Message` (responses) by the TypeScript compiler (sdk-typecheck.ts), so an unknown field, a wrong
 * type or an enum value the SDK does not know fails the test. Deliberately wrong bodies below show
 * the oracle rejects what it should.
 *
 * What the installed SDK (1.12, API version 2026-10-21) cannot judge, and why:
 * - temperature / top_p / top_k: removed in API version 2026-10-21; valid in 2023-06-01, the
 *   version of our bodies and the captures (sdk-typecheck.ts adds them back).
 * - response fields typed as required but newer than the captures (nullable ones, `caller`,
 *   `web_fetch_requests`) may be absent (sdk-typecheck.ts).
 * - captures of beta features are checked against the SDK's Beta types instead (BETA below), and
 *   are checked to need them.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { convert } from '../../../src/index.js';
import { listFiles, LOCAL_FIXTURES, readExchanges } from '../../support/captures.js';
import { typecheck, type TypeCase } from './sdk-typecheck.js';

type Kind = 'request' | 'response';
type From = 'anthropic-messages' | 'openai-chat';

/** Captures that use beta features: the GA types reject them, the Beta types must accept them. */
const BETA: Record<string, string> = {
  'anthropic-messages response anthropic-advisor-20260301.1.json': 'advisor tool (advisor-tool-2026-03-01)',
  'anthropic-messages response anthropic-clear-thinking.1.json': 'context_management (context-management-2025-06-27)',
  'anthropic-messages response anthropic-compaction.1.json': 'compaction block and usage.iterations (compact-2026-01-12)',
  'anthropic-messages response anthropic-mcp.1.json': 'mcp_tool_use / mcp_tool_result (mcp-client)',
  'anthropic-messages response anthropic-refusal.json': 'stop_details.recommended_model (typed in the beta RefusalStopDetails only)',
  'anthropic-messages request exchanges/test_anthropic_compaction_round_trip.yaml#0': 'compaction block (compact-2026-01-12)',
  'anthropic-messages response exchanges/test_anthropic_compaction_round_trip.yaml#0': 'usage.iterations (compact-2026-01-12)',
  'anthropic-messages request exchanges/test_anthropic_mcp_servers.yaml#0': 'mcp_servers (mcp-client)',
  'anthropic-messages response exchanges/test_anthropic_mcp_servers.yaml#0': 'mcp_tool_use / mcp_tool_result (mcp-client)',
  'anthropic-messages request exchanges/test_anthropic_mcp_servers.yaml#1': 'mcp_tool_use / mcp_tool_result (mcp-client)',
  'anthropic-messages response exchanges/test_anthropic_mcp_servers.yaml#1': 'mcp_tool_use / mcp_tool_result (mcp-client)',
};

/** Inputs that are not valid Anthropic bodies to begin with (our round trip keeps them as given). */
const NOT_VALID_INPUT: Record<string, string> = {
  'anthropic-messages request metadata.json': "agentgateway's hand-written vector: metadata.department is no Metadata field",
  'anthropic-messages request reasoning.json': 'output_format: "markdown" (rejected by our decoder, tested in fixtures.test.ts)',
  'anthropic-messages request exchanges/TestSyncRunTools__tool_call_error__f59a9391.json#1': 'the API answered 400 (orphan tool_result)',
};

interface Body {
  name: string;
  from: From;
  kind: Kind;
  body: unknown;
}

/** The request and response bodies of one format's local fixtures. */
function bodies(from: From, dirs: { requests: string; responses: string }): Body[] {
  const root = join(LOCAL_FIXTURES, from);
  const file = (kind: Kind) => (f: string): Body => ({ name: `${from} ${kind} ${basename(f)}`, from, kind, body: JSON.parse(readFileSync(f, 'utf8')) });
  const out = [
    ...listFiles(join(root, dirs.requests), ['.json']).map(file('request')),
    ...listFiles(join(root, dirs.responses), ['.json']).map(file('response')),
  ];
  for (const f of listFiles(join(root, 'exchanges'), ['.yaml', '.json'])) {
    for (const ex of readExchanges(f, root)) {
      if (ex.request !== undefined) out.push({ name: `${from} request ${ex.name}`, from, kind: 'request', body: ex.request });
      if (ex.status === 200 && ex.response !== undefined) out.push({ name: `${from} response ${ex.name}`, from, kind: 'response', body: ex.response });
    }
  }
  return out.filter((b) => !(b.name in NOT_VALID_INPUT));
}

/** agentgateway's Chat Completions inputs (hand-written, but what a gateway meets). */
function agentgateway(): Body[] {
  const root = join(LOCAL_FIXTURES, 'conversion/agentgateway');
  const read = (kind: Kind, dir: string): Body[] =>
    listFiles(join(root, dir), ['.json']).map((f) => ({ name: `agentgateway ${kind} ${basename(f)}`, from: 'openai-chat', kind, body: JSON.parse(readFileSync(f, 'utf8')) }));
  // truncated_tool_call: our decoder rejects its non-JSON arguments (docs/decisions/0002, B3).
  return [...read('request', 'requests/completions'), ...read('response', 'response/completions')].filter((b) => !b.name.endsWith('truncated_tool_call.json'));
}

const ALL: Body[] = [
  ...bodies('anthropic-messages', { requests: 'requests', responses: 'response' }),
  ...bodies('openai-chat', { requests: 'requests', responses: 'responses' }),
  ...agentgateway(),
];

/** What we write to Anthropic for a body: its round trip, or its conversion from OpenAI Chat. */
const encoded = (b: Body): unknown => convert(b.body, { from: b.from, to: 'anthropic-messages', kind: b.kind }).value;

const gaType = (kind: Kind): TypeCase['type'] => (kind === 'request' ? 'Request' : 'Response');
const betaType = (kind: Kind): TypeCase['type'] => (kind === 'request' ? 'BetaRequest' : 'BetaResponse');

/** Deliberately wrong bodies: each must get a compile error (the check can fail). */
const WRONG: TypeCase[] = [
  { name: 'unknown top-level field', type: 'Request', value: { model: 'm', max_tokens: 1, messages: [], max_completion_tokens: 1 } },
  { name: 'unknown role', type: 'Request', value: { model: 'm', max_tokens: 1, messages: [{ role: 'tool', content: 'x' }] } },
  { name: 'block field of another type', type: 'Request', value: { model: 'm', max_tokens: 1, messages: [{ role: 'user', content: [{ type: 'text', text: 'x', source: {} }] }] } },
  { name: 'max_tokens as text', type: 'Request', value: { model: 'm', max_tokens: '1', messages: [] } },
  { name: 'unknown stop_reason', type: 'Response', value: { id: 'x', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: 'stop', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } },
  { name: 'response without usage', type: 'Response', value: { id: 'x', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: 'end_turn', stop_sequence: null } },
  { name: 'tool_use without id', type: 'Response', value: { id: 'x', type: 'message', role: 'assistant', model: 'm', content: [{ type: 'tool_use', name: 'f', input: {} }], stop_reason: 'tool_use', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } },
];

describe('encoded Anthropic bodies against the @anthropic-ai/sdk types', () => {
  let errors = new Map<string, string[]>();
  const cases: TypeCase[] = [];

  beforeAll(() => {
    for (const b of ALL) {
      const value = encoded(b);
      const beta = b.name in BETA;
      cases.push({ name: b.name, type: beta ? betaType(b.kind) : gaType(b.kind), value });
      if (beta) cases.push({ name: `${b.name} (GA)`, type: gaType(b.kind), value });
    }
    cases.push(...WRONG.map((w) => ({ ...w, name: `wrong: ${w.name}` })));
    errors = typecheck(cases);
  }, 180_000); // one compiler run over the SDK's declarations: seconds, more on a busy machine

  it('has bodies of both origins and kinds, and every listed capture exists', () => {
    for (const from of ['anthropic-messages', 'openai-chat'] as const) {
      for (const kind of ['request', 'response'] as const) expect(ALL.filter((b) => b.from === from && b.kind === kind).length).toBeGreaterThan(0);
    }
    expect(ALL.filter((b) => b.name.startsWith('agentgateway')).length).toBe(21);
    const names = new Set(ALL.map((b) => b.name));
    expect(Object.keys(BETA).filter((n) => !names.has(n))).toEqual([]);
  });

  for (const b of ALL) {
    const as = b.name in BETA ? `the Beta types (${BETA[b.name]})` : 'the SDK types';
    it(`${b.name} satisfies ${as}`, () => {
      expect(errors.get(b.name)).toEqual([]);
      if (b.name in BETA) expect(errors.get(`${b.name} (GA)`)?.length ?? 0, 'listed as beta but fits the GA types').toBeGreaterThan(0);
    });
  }

  for (const w of WRONG) {
    it(`rejects a wrong body: ${w.name}`, () => {
      expect(errors.get(`wrong: ${w.name}`)?.length ?? 0).toBeGreaterThan(0);
    });
  }
});
