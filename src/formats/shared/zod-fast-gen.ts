/**
 * Generated code for the container nodes of a fast check (objects, arrays, discriminated unions):
 * one small function per schema node, its property names written as literals, so V8 answers
 * each read with a monomorphic inline cache (a closure shared by every object schema reads
 * `v[key]` megamorphically, about as slow as zod's own parse). Children are called as constants
 * (each child node has its own function, shared by every parent) and plain leaves (strings,
 * numbers, literals, their optional / nullable forms) are tested inline. The rules are those of
 * zod-fast-check.ts, which is the fallback where `new Function` is not allowed (strict CSP).
 */
import type { FastCheck, Node } from './zod-fast-check.js';

type Child = (node: Node) => FastCheck;

/** Whether `new Function` works here: probed once. */
let evalAllowed: boolean | undefined;

/** Turns generated code off (or back on): for hosts that forbid eval without throwing, and for tests of the fallback. */
export function setCodeGeneration(on: boolean): void {
  evalAllowed = on ? undefined : false;
}

function canEval(): boolean {
  if (evalAllowed === undefined) {
    try {
      evalAllowed = new Function('return true')() === true;
    } catch {
      evalAllowed = false;
    }
  }
  return evalAllowed;
}

/** Collects the constants a generated function refers to (c0, c1 ...). */
class Consts {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    let i = this.values.indexOf(value);
    if (i < 0) i = this.values.push(value) - 1;
    return `c${i}`;
  }
}

function plain(node: Node): boolean {
  const z = node._zod;
  return z.def['coerce'] !== true && (z.def.checks?.length ?? 0) === 0 && !z.traits.has('$ZodCheck');
}

/** A literal JS text for a primitive zod value, or undefined for one that needs a Set (NaN, bigint, symbol). */
function literal(v: unknown): string | undefined {
  if (v === undefined) return 'undefined';
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return JSON.stringify(v);
  if (typeof v === 'number' && Number.isFinite(v) && !Object.is(v, -0)) return String(v);
  return undefined;
}

/** The inline test of `x` for a plain leaf node, or a call of its own check. */
function test(node: Node, x: string, consts: Consts, child: Child): string {
  const z = node._zod;
  if (plain(node)) {
    switch (z.def.type) {
      case 'string':
        return `typeof ${x} === "string"`;
      case 'number':
        return `(typeof ${x} === "number" && Number.isFinite(${x}))`;
      case 'boolean':
        return `typeof ${x} === "boolean"`;
      case 'null':
        return `${x} === null`;
      case 'unknown':
      case 'any':
        return 'true';
      case 'literal':
      case 'enum': {
        const values = z.values === undefined ? [] : [...z.values];
        const texts = values.map(literal);
        if (values.length > 0 && values.length <= 4 && texts.every((t) => t !== undefined)) return `(${texts.map((t) => `${x} === ${t as string}`).join(' || ')})`;
        break;
      }
      case 'optional': {
        const inner = z.def['innerType'] as Node;
        if (z.traits.has('$ZodExactOptional') || inner._zod.optin === 'defaulted') break;
        return `(${x} === undefined || ${test(inner, x, consts, child)})`;
      }
      case 'nullable':
        return `(${x} === null || ${test(z.def['innerType'] as Node, x, consts, child)})`;
      default:
        break;
    }
  }
  return `${consts.add(child(node))}(${x})`;
}

function objectBody(node: Node, consts: Consts, child: Child): string | undefined {
  const def = node._zod.def;
  const shape = def['shape'] as Record<string, Node>;
  if (Object.getOwnPropertySymbols(shape).length > 0) return undefined;
  const lines = ['if (typeof v !== "object" || v === null || Array.isArray(v)) return false;', 'let x;'];
  for (const key of Object.keys(shape)) {
    if (key === '__proto__') continue;
    const el = shape[key] as Node;
    const k = JSON.stringify(key);
    const t = test(el, 'x', consts, child);
    const { optin, optout } = el._zod;
    // zod's handlePropertyResult: an absent key is fine, refused, or checked as undefined.
    const absent = optout === 'optional' && optin !== undefined ? '' : optin === undefined ? 'return false;' : `x = undefined; if (!(${t})) return false;`;
    lines.push(`x = v[${k}];`, `if (x === undefined) { if (${k} in v) { if (!(${t})) return false; } else { ${absent} } } else if (!(${t})) return false;`);
  }
  const catchall = def['catchall'] as Node | undefined;
  if (catchall !== undefined) {
    const declared = consts.add(new Set(Object.keys(shape)));
    if (catchall._zod.def.type === 'never') lines.push(`for (const key in v) if (!${declared}.has(key)) return false;`);
    else {
      const t = test(catchall, 'v[key]', consts, child);
      if (t !== 'true') lines.push(`for (const key in v) if (!${declared}.has(key) && key !== "__proto__" && !(${t})) return false;`);
    }
  }
  lines.push('return true;');
  return lines.join('\n');
}

function arrayBody(node: Node, consts: Consts, child: Child): string {
  const t = test(node._zod.def['element'] as Node, 'x', consts, child);
  return `if (!Array.isArray(v)) return false;\nfor (let i = 0; i < v.length; i++) { const x = v[i]; if (!(${t})) return false; }\nreturn true;`;
}

/** A switch on the discriminator (as zod's discriminatorMap: a value two options claim picks none). */
function discriminatedBody(node: Node, consts: Consts, child: Child): string | undefined {
  const def = node._zod.def;
  const key = def['discriminator'] as string;
  const options = def['options'] as Node[];
  const owner = new Map<unknown, number | null>();
  for (let i = 0; i < options.length; i++) {
    const values = (options[i] as Node)._zod.propValues?.[key];
    if (values === undefined || values.size === 0) return undefined;
    for (const value of values) owner.set(value, owner.has(value) ? null : i);
  }
  const cases: string[] = [];
  for (const [value, i] of owner) {
    const text = literal(value);
    if (text === undefined) return undefined;
    if (i !== null) cases.push(`case ${text}: return ${consts.add(child(options[i] as Node))}(v);`);
  }
  const fallback = def['unionFallback'] === true ? options.map((o) => `${consts.add(child(o))}(v)`).join(' || ') : 'false';
  return `if (typeof v !== "object" || v === null || Array.isArray(v)) return false;\nswitch (v[${JSON.stringify(key)}]) {\n${cases.join('\n')}\ndefault: return ${fallback};\n}`;
}

/** The generated check of an object, array or discriminated union node; undefined where it cannot be generated. */
export function generated(node: Node, child: Child): FastCheck | undefined {
  if (!canEval()) return undefined;
  const consts = new Consts();
  const type = node._zod.def.type;
  const body = type === 'object' ? objectBody(node, consts, child) : type === 'array' ? arrayBody(node, consts, child) : discriminatedBody(node, consts, child);
  if (body === undefined) return undefined;
  const names = consts.values.map((_, i) => `c${i}`);
  return new Function(...names, `return function check(v) {\n${body}\n};`)(...consts.values) as FastCheck;
}
