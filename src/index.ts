/**
 * @module interlingua
 * Translate LLM agent requests and responses between wire formats through one canonical model.
 */
export { convert, decode, encode, type ConvertOptions, type ConvertResult } from './formats/convert.js';
export { formats, type FormatInfo } from './formats/registry.js';
export { DEFAULT_LIMITS, type Limits, type Codec } from './formats/codec.js';
export { STASH_KEY } from './formats/shared/stash.js';
export { deriveQuestion, toAgentInputErrorBody, type AgentInputErrorBody, type QuestionOptions } from './formats/agent-input/index.js';
export * from './model/index.js';
