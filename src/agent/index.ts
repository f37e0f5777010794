/** `interlingua/agent`: a small model loop with tools and hooks, and the model client that reaches the gateway. */
export { Agent, DEFAULT_MAX_STEPS, messageText, type AgentOptions, type AgentInput, type AgentResult, type InvokeOptions } from './agent.js';
export { tool, outputParts, ToolInputError, type AgentTool, type ToolSpec, type ToolContext, type ToolOutput } from './tool.js';
export type { AgentHooks, AgentState, InitializedEvent, MessageAddedEvent } from './hooks.js';
export { ModelCallError, type ModelClient, type ModelCallOptions } from './model-client.js';
export { gatewayModelClient, type GatewayClientOptions, type FetchLike } from './gateway-client.js';
