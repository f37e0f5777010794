/** Every wire format interlingua knows by name (DESIGN.md "Format ids"). */
export const FORMAT_IDS = [
  'openai-chat',
  'openai-responses',
  'anthropic-messages',
  'bedrock-converse',
  'gemini',
  'a2a',
  'ag-ui',
  'agentcore-memory',
  'agent-input',
] as const;
export type FormatId = (typeof FORMAT_IDS)[number];

export const KINDS = ['request', 'response', 'stream'] as const;
export type Kind = (typeof KINDS)[number];

export function isFormatId(value: string): value is FormatId {
  return (FORMAT_IDS as readonly string[]).includes(value);
}
