/** The standard agent input codec (`agent-input`): agent execute request bodies, request kind only. */
import type { Codec } from '../codec.js';
import { decodeRequest } from './request-decode.js';
import { encodeRequest } from './request-encode.js';

export const agentInput: Codec = {
  id: 'agent-input',
  title: 'Standard agent input',
  request: { decode: decodeRequest, encode: encodeRequest },
};

export { deriveQuestion, type QuestionOptions } from './question.js';
export { toAgentInputErrorBody, type AgentInputErrorBody } from './errors.js';
export type { AgentInputRequest, AgentMessage, ContentBlock, MediaSource, ToolCall } from './agent-input-api.js';
