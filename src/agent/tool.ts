/**
 * `tool({ name, description, inputSchema, run })`: a function the agent's model may call. The input
 * schema is JSON Schema, or a zod schema (zod 4): then the model is shown `z.toJSONSchema(schema)`
 * and the arguments are parsed with it before `run` sees them, so a bad call is an error result
 * naming the wrong field, which the model reads and can correct.
 */
import { z } from 'zod';
import { UsageError } from '../model/errors.js';
import type { JsonObject, JsonValue } from '../model/json.js';
import type { Part } from '../model/part.js';

export interface ToolContext {
  /** The id of the call being answered. */
  callId: string;
  signal?: AbortSignal;
}

/** What a tool returns: text, any JSON value (sent as its JSON text), or canonical parts. */
export type ToolOutput = string | JsonValue | { parts: Part[] } | undefined | void;

export interface ToolSpec<I> {
  /** 1-64 letters, digits, `_` or `-` (the rule every provider accepts). */
  name: string;
  description?: string;
  /** JSON Schema of the arguments object, or a zod schema. */
  inputSchema?: JsonObject | z.ZodType<I>;
  run(input: I, context: ToolContext): ToolOutput | Promise<ToolOutput>;
}

export interface AgentTool {
  readonly name: string;
  readonly description: string | undefined;
  /** The arguments' JSON Schema as the model is shown it. */
  readonly parameters: JsonObject;
  /** Checks the arguments (zod tools) and runs; throws what the tool throws. */
  call(args: JsonValue, context: ToolContext): Promise<ToolOutput>;
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

function isZod(schema: unknown): schema is z.ZodType {
  return typeof schema === 'object' && schema !== null && '_zod' in schema;
}

/** Thrown for arguments a zod tool refuses; its message names each wrong field. */
export class ToolInputError extends Error {
  constructor(tool: string, issues: readonly z.core.$ZodIssue[]) {
    super(`invalid arguments for ${tool}: ${issues.map((i) => `${i.path.length === 0 ? '(arguments)' : i.path.join('.')}: ${i.message}`).join('; ')}`);
    this.name = 'ToolInputError';
  }
}

export function tool<I = JsonValue>(spec: ToolSpec<I>): AgentTool {
  if (typeof spec !== 'object' || spec === null) throw new UsageError('tool takes { name, description?, inputSchema?, run }');
  if (typeof spec.name !== 'string' || !NAME.test(spec.name)) throw new UsageError(`tool: name must be 1-64 letters, digits, _ or - (got ${JSON.stringify(spec.name)})`);
  if (typeof spec.run !== 'function') throw new UsageError(`tool ${spec.name}: run must be a function`);
  const schema = spec.inputSchema;
  let parameters: JsonObject;
  let parse: (args: JsonValue) => I;
  if (isZod(schema)) {
    const json = z.toJSONSchema(schema, { target: 'draft-2020-12' }) as JsonObject;
    delete json['$schema'];
    parameters = json;
    parse = (args) => {
      const r = schema.safeParse(args);
      if (!r.success) throw new ToolInputError(spec.name, r.error.issues);
      return r.data as I;
    };
  } else if (schema === undefined) {
    parameters = { type: 'object', properties: {} };
    parse = (args) => args as I;
  } else if (typeof schema === 'object' && !Array.isArray(schema)) {
    parameters = schema;
    parse = (args) => args as I;
  } else {
    throw new UsageError(`tool ${spec.name}: inputSchema must be a JSON Schema object or a zod schema`);
  }
  return {
    name: spec.name,
    description: spec.description,
    parameters,
    call: async (args, context) => spec.run(parse(args), context),
  };
}

/** A tool's output as the parts of its result. */
export function outputParts(output: ToolOutput): Part[] {
  if (output === undefined) return [];
  if (typeof output === 'string') return [{ type: 'text', text: output }];
  if (typeof output === 'object' && output !== null && !Array.isArray(output) && Array.isArray((output as { parts?: unknown }).parts)) {
    return (output as { parts: Part[] }).parts;
  }
  return [{ type: 'text', text: JSON.stringify(output) }];
}
