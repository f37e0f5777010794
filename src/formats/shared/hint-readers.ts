/**
 * Which encoders look at another format's private `$` hints (residue.ts `isHintKey`): most neither
 * write nor report them, so a value bound only for one of those may be decoded without the hints
 * (DecodeContext `hints: false`; memory recall's `verbatim: false`), which saves the work of making
 * them (agentcore-memory's read-back check of every event). Gemini's encoder reports another
 * format's hints (a `foreign-form` loss), and a2a / agent-input / agentcore-memory carry ext along,
 * so those read them.
 */
const HINTLESS: ReadonlySet<string> = new Set(['openai-chat', 'anthropic-messages', 'bedrock-converse', 'openai-responses', 'ag-ui']);

/** Whether a value to be encoded to `format` must carry the source format's `$` hints. */
export function readsHints(format: string): boolean {
  return !HINTLESS.has(format);
}
