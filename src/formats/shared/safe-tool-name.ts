/**
 * The tool-name rule Anthropic (`^[a-zA-Z0-9_-]{1,64}$`, the API's own error text) and Bedrock
 * Converse (ToolName in the Smithy model) both state. A name that does not fit is rewritten
 * deterministically — the same input always gives the same output, so a tool, the calls to it and
 * the tool choice stay consistent.
 */
import { stableHash } from './stable-hash.js';

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const BAD = /[^a-zA-Z0-9_-]/g;

/** A valid name: invalid characters become '_', and a hash of the original keeps it unique. */
export function toSafeToolName(name: string): string {
  if (NAME.test(name)) return name;
  return `${name.replace(BAD, '_').slice(0, 55)}_${stableHash(name)}`;
}
