/**
 * Schema oracle for standard agent input request bodies, written as a JSON Schema independently
 * of the codec, from the source design (`{ "input": <string | content block[] | message[]> }`,
 * legacy `{ "parameters": { "question" } }`) and ml-commons' parser and validator (protocols.md
 * §4.1-4.3: `AgentMLInput`, `AgentInput.java`, `AgentInputProcessor.java`):
 * - top level: `input` and/or `parameters` (with a string `question` when there is no `input`),
 *   plus the other `AgentMLInput` fields (`agent_id`, `tenant_id`, `isAsync`); nothing else;
 * - text is never blank; media blocks hold `{ type: base64 | url (any case), format, data }` under
 *   the block type's name (source design) or `source` (ml-commons); blocks have no other keys;
 *   base64 data is base64 text (ml-commons does not check it; the providers it feeds do);
 * - messages: any non-blank role; content a non-empty block list, except an assistant message
 *   that only calls tools; `toolCalls` only on assistant messages, `toolCallId` required on tool
 *   messages; arguments are text.
 * The ml-commons rule that the last message is from `user` or `tool` is not checked: the source
 * design does not have it and the codec documents the divergence.
 *
 * `validateAgentInput(kind, value)` returns one message per problem (`/input/0/text ...`).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { describeErrors } from '../openapi.js';

const nonBlank = { type: 'string', pattern: '\\S' };
const source = {
  type: 'object',
  properties: { type: { type: 'string', pattern: '^(?:[bB][aA][sS][eE]64|[uU][rR][lL])$' }, format: nonBlank, data: nonBlank },
  required: ['type', 'format', 'data'],
  additionalProperties: false,
  // Base64 data is sent on as bytes: it must decode (RFC 4648, standard or URL-safe alphabet).
  if: { properties: { type: { pattern: '^[bB][aA][sS][eE]64$' } } },
  then: { properties: { data: { pattern: '^(?:[A-Za-z0-9+/_-]{4})*(?:[A-Za-z0-9+/_-]{2}(?:==)?|[A-Za-z0-9+/_-]{3}=?)?$' } } },
};
// JSON Schema patterns have no case-insensitive flag: spell each letter both ways.
const anyCase = (word: string): string => `^${[...word].map((c) => `[${c.toLowerCase()}${c.toUpperCase()}]`).join('')}$`;
const mediaBlock = (kind: string) => ({
  type: 'object',
  properties: { type: { type: 'string', pattern: anyCase(kind) }, [kind]: source, source },
  required: ['type'],
  oneOf: [{ required: [kind] }, { required: ['source'] }],
  additionalProperties: false,
});

const SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $defs: {
    text: {
      type: 'object',
      properties: { type: { type: 'string', pattern: anyCase('text') }, text: nonBlank },
      required: ['type', 'text'],
      additionalProperties: false,
    },
    image: mediaBlock('image'),
    video: mediaBlock('video'),
    document: mediaBlock('document'),
    block: { oneOf: [{ $ref: '#/$defs/text' }, { $ref: '#/$defs/image' }, { $ref: '#/$defs/video' }, { $ref: '#/$defs/document' }] },
    blocks: { type: 'array', minItems: 1, items: { $ref: '#/$defs/block' } },
    toolCall: {
      type: 'object',
      properties: {
        id: nonBlank,
        type: { const: 'function' },
        function: {
          type: 'object',
          properties: { name: nonBlank, arguments: { type: 'string' } },
          required: ['name', 'arguments'],
          additionalProperties: false,
        },
      },
      required: ['id', 'function'],
      additionalProperties: false,
    },
    message: {
      type: 'object',
      properties: {
        role: nonBlank,
        content: { type: 'array', items: { $ref: '#/$defs/block' } },
        toolCalls: { type: 'array', items: { $ref: '#/$defs/toolCall' } },
        toolCallId: nonBlank,
      },
      required: ['role'],
      additionalProperties: false,
      allOf: [
        // Content is required and non-empty, unless an assistant message only calls tools.
        {
          if: { properties: { role: { pattern: anyCase('assistant') } }, required: ['toolCalls'] },
          then: { properties: { toolCalls: { minItems: 1 } } },
          else: { properties: { content: { minItems: 1 } }, required: ['content'] },
        },
        { if: { properties: { role: { not: { pattern: anyCase('assistant') } } } }, then: { not: { required: ['toolCalls'] } } },
        { if: { properties: { role: { pattern: anyCase('tool') } } }, then: { required: ['toolCallId'] }, else: { not: { required: ['toolCallId'] } } },
      ],
    },
    messages: { type: 'array', minItems: 1, items: { $ref: '#/$defs/message' } },
  },
  type: 'object',
  properties: {
    input: { oneOf: [nonBlank, { $ref: '#/$defs/blocks' }, { $ref: '#/$defs/messages' }] },
    parameters: { type: 'object' },
    agent_id: { type: 'string' },
    tenant_id: { type: 'string' },
    isAsync: { type: 'boolean' },
  },
  additionalProperties: false,
  anyOf: [{ required: ['input'] }, { required: ['parameters'], properties: { parameters: { required: ['question'], properties: { question: nonBlank } } } }],
};

let compiled: ValidateFunction | undefined;

export function validateAgentInput(kind: 'request' | 'response', value: unknown): string[] {
  if (kind !== 'request') return ['agent input has request bodies only'];
  compiled ??= new Ajv2020({ strict: false, allErrors: true }).compile(SCHEMA);
  if (compiled(value)) return [];
  const text = describeErrors(compiled.errors, 12);
  return text === '' ? ['invalid'] : text.split('\n');
}
