/**
 * How an error result is told apart in a tool message or function_call_output, which have no
 * error flag (OpenAI Chat and Responses).
 */
export const TOOL_ERROR_PREFIX = '[tool error] ';
