/**
 * JSON Schema -> Gemini Schema rewriting (function parameters and responseSchema): each rewrite
 * and the loss it reports, and that the result passes the Schema check of validateGemini while
 * the raw JSON Schema does not.
 */
import { describe, expect, it } from 'vitest';
import { toGeminiSchema } from '../../../src/formats/gemini/json-schema.js';
import { LossList } from '../../../src/formats/shared/loss-list.js';
import type { JsonObject } from '../../../src/model/json.js';
import { validateGemini } from '../../support/validators/gemini.js';
import { decodeRequest, encodeRequest } from './helpers.js';

function rewrite(schema: JsonObject): { out: JsonObject; losses: [string, string, string][] } {
  const losses = new LossList();
  const out = toGeminiSchema(schema, ['parameters'], losses);
  return { out, losses: losses.items.map((l) => [l.code, l.path.join('.'), l.action]) };
}

/** validateGemini's verdict on a request whose one function takes `parameters`. */
const asParameters = (parameters: JsonObject): string[] =>
  validateGemini('request', { contents: [{ role: 'user', parts: [{ text: 'x' }] }], tools: [{ functionDeclarations: [{ name: 'f', parameters }] }] });

const pydanticStyle: JsonObject = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $defs: { City: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false } },
  type: 'object',
  properties: {
    city: { $ref: '#/$defs/City' },
    unit: { type: ['string', 'null'], enum: ['c', 'f', null] },
    days: { type: 'integer', exclusiveMinimum: 0 },
    kind: { oneOf: [{ type: 'string' }, { type: 'number' }] },
    mode: { const: 'fast' },
  },
  required: ['city'],
  additionalProperties: false,
};

describe('toGeminiSchema', () => {
  it('a schema Gemini takes comes back as the same object, with nothing reported', () => {
    const schema: JsonObject = { type: 'object', properties: { q: { type: 'string', description: 'query', nullable: true } }, required: ['q'], propertyOrdering: ['q'] };
    const { out, losses } = rewrite(schema);
    expect(out).toBe(schema);
    expect(losses).toEqual([]);
  });

  it('inlines $ref, folds null into nullable, oneOf into anyOf, const into enum, and drops the rest', () => {
    const { out, losses } = rewrite(pydanticStyle);
    expect(out).toEqual({
      type: 'object',
      properties: {
        city: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        unit: { type: 'string', nullable: true, enum: ['c', 'f', 'null'] },
        days: { type: 'integer' },
        kind: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        mode: { enum: ['fast'] },
      },
      required: ['city'],
    });
    expect(losses).toEqual([
      ['schema-rewrite', 'parameters.$schema', 'dropped'],
      ['schema-rewrite', 'parameters.$defs', 'approximated'],
      ['schema-rewrite', 'parameters.properties.city', 'approximated'],
      ['schema-rewrite', 'parameters.properties.city.additionalProperties', 'dropped'],
      ['schema-rewrite', 'parameters.properties.unit.type', 'approximated'],
      ['schema-rewrite', 'parameters.properties.unit.enum', 'approximated'],
      ['schema-rewrite', 'parameters.properties.days.exclusiveMinimum', 'dropped'],
      ['schema-rewrite', 'parameters.properties.kind.oneOf', 'approximated'],
      ['schema-rewrite', 'parameters.properties.mode.const', 'approximated'],
      ['schema-rewrite', 'parameters.additionalProperties', 'dropped'],
    ]);
    expect(pydanticStyle['$defs']).toBeDefined(); // the input is not changed
  });

  it('the validator rejects the raw JSON Schema as parameters and accepts the rewrite', () => {
    const raw = asParameters(pydanticStyle);
    expect(raw).toContain('tools[0].functionDeclarations[0].parameters.$schema: unknown field of Schema');
    expect(raw).toContain('tools[0].functionDeclarations[0].parameters.properties.city.$ref: unknown field of Schema');
    expect(asParameters(rewrite(pydanticStyle).out)).toEqual([]);
  });

  it('a recursive $ref cannot be inlined: an unconstrained object is sent (dropped)', () => {
    const tree: JsonObject = { $defs: { Node: { type: 'object', properties: { child: { $ref: '#/$defs/Node' } } } }, $ref: '#/$defs/Node' };
    const { out, losses } = rewrite(tree);
    expect(out).toEqual({ type: 'object', properties: { child: { type: 'object' } } });
    expect(losses.filter(([, , a]) => a === 'dropped').map(([, p]) => p)).toEqual(['parameters.properties.child']);
  });

  it('a list of several types becomes anyOf; tuple items are dropped', () => {
    expect(rewrite({ type: ['string', 'integer'] }).out).toEqual({ anyOf: [{ type: 'string' }, { type: 'integer' }] });
    const tuple = rewrite({ type: 'array', items: [{ type: 'string' }] });
    expect(tuple.out).toEqual({ type: 'array' });
    expect(tuple.losses).toEqual([['schema-rewrite', 'parameters.items', 'dropped']]);
  });
});

describe('schemas through the request codec', () => {
  it('tool parameters are rewritten and each rewrite is reported under tools[i].parameters', () => {
    const { value, losses } = encodeRequest({ messages: [{ role: 'user', parts: [{ type: 'text', text: 'x' }], stringContent: true }], tools: [{ type: 'function', name: 'f', parameters: pydanticStyle }] });
    expect(validateGemini('request', value)).toEqual([]);
    expect(losses.every((l) => l.code === 'schema-rewrite' && l.path.slice(0, 3).join('.') === 'tools.0.parameters')).toBe(true);
    expect(losses).toHaveLength(10);
  });

  it('under preserve the original tools come back exactly', () => {
    const req = { messages: [{ role: 'user' as const, parts: [{ type: 'text' as const, text: 'x' }], stringContent: true as const }], tools: [{ type: 'function' as const, name: 'f', parameters: pydanticStyle }] };
    const { value, losses } = encodeRequest(req, true);
    expect(losses.every((l) => l.action === 'stashed')).toBe(true);
    expect(decodeRequest(value).tools).toEqual(req.tools);
  });

  it('parametersJsonSchema and responseJsonSchema take JSON Schema: written back verbatim', () => {
    const body = {
      contents: [{ role: 'user', parts: [{ text: 'x' }] }],
      tools: [{ functionDeclarations: [{ name: 'f', parametersJsonSchema: pydanticStyle }] }],
      generationConfig: { responseMimeType: 'application/json', responseJsonSchema: pydanticStyle },
    };
    const req = decodeRequest(body);
    expect(req.responseFormat).toEqual({ type: 'json-schema', schema: pydanticStyle });
    const { value, losses } = encodeRequest(req);
    expect(value).toEqual(body);
    expect(losses).toEqual([]);
  });
});
