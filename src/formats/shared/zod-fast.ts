/**
 * Schema checks on the hot path of every decode: zod's compiled validator (`z.compile`, generated
 * code that only answers valid / not valid, building no output) answers first; only when it says
 * "not valid" does the runtime schema run, to build the detailed issues. Valid bodies, the common
 * case, skip zod's runtime parse and the stripped copy it builds, and invalid ones get exactly the
 * issues the plain schema gives (the runtime parse of the same schema produces them).
 */
import { z } from 'zod';

type ZodIssue = z.core.$ZodIssue;

const NONE: readonly ZodIssue[] = Object.freeze([]);

/** The zod issues of `value` against the schema: an empty list when it is valid. */
export type SchemaCheck = (value: unknown) => readonly ZodIssue[];

/**
 * A check for `schema`. Compiled on first use, not at import (the generated code costs a few ms
 * per schema, paid only by the dialects a process uses); a schema zod cannot compile (a recursive
 * one) is returned as it is by `z.compile`, so its `validate` is the runtime one: still correct.
 */
export function schemaCheck(schema: z.ZodType): SchemaCheck {
  let fast: z.ZodType | undefined;
  return (value) => {
    fast ??= z.compile(schema);
    if (fast.validate(value)) return NONE;
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
