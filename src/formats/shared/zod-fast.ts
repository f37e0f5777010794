/**
 * Schema checks on the hot path of every decode: a fast yes/no check built from the schema
 * (zod-fast-check.ts: no output, no payloads) answers first; only when it says "not valid" does
 * zod's runtime parse run, to build the detailed issues. Valid bodies, the common case, skip the
 * runtime parse and the stripped copy it builds; invalid ones get exactly the issues the plain
 * schema gives, since the runtime parse of the same schema produces them.
 */
import type { z } from 'zod';
import { fastCheck, type FastCheck } from './zod-fast-check.js';

type ZodIssue = z.core.$ZodIssue;

const NONE: readonly ZodIssue[] = Object.freeze([]);

/** The zod issues of `value` against the schema: an empty list when it is valid. */
export type SchemaCheck = (value: unknown) => readonly ZodIssue[];

/** A check for `schema`; its fast check is built on first use (paid only by the dialects a process uses). */
export function schemaCheck(schema: z.ZodType): SchemaCheck {
  let fast: FastCheck | undefined;
  return (value) => {
    fast ??= fastCheck(schema);
    if (fast(value)) return NONE;
    const parsed = schema.safeParse(value);
    return parsed.success ? NONE : parsed.error.issues;
  };
}

const checks = new WeakMap<z.ZodType, SchemaCheck>();

/** `schemaCheck(schema)(value)`, for call sites that pick the schema per value: one check per schema, kept. */
export function schemaIssues(schema: z.ZodType, value: unknown): readonly ZodIssue[] {
  let check = checks.get(schema);
  if (check === undefined) {
    check = schemaCheck(schema);
    checks.set(schema, check);
  }
  return check(value);
}
