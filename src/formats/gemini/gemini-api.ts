/**
 * Gemini generateContent wire types (google.ai.generativelanguage.v1beta / Vertex aiplatform v1),
 * in their lowerCamelCase JSON spelling. Only what the codec reads and writes is typed; every
 * message may carry more (residue). The protos in ../shared/fixtures/schemas/gemini are the truth.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';

export interface GeminiBlob {
  mimeType: string;
  data: string;
}

export interface GeminiFileData {
  mimeType?: string;
  fileUri: string;
}

export interface GeminiFunctionCall {
  id?: string;
  name: string;
  args?: JsonObject;
}

export interface GeminiFunctionResponsePart {
  inlineData?: GeminiBlob;
  fileData?: GeminiFileData;
}

export interface GeminiFunctionResponse {
  id?: string;
  name: string;
  response: JsonObject;
  parts?: GeminiFunctionResponsePart[];
  willContinue?: boolean;
  scheduling?: 'SCHEDULING_UNSPECIFIED' | 'SILENT' | 'WHEN_IDLE' | 'INTERRUPT';
}

/** One part: exactly one data member, plus optional metadata. */
export interface GeminiPart {
  text?: string;
  inlineData?: GeminiBlob;
  fileData?: GeminiFileData;
  functionCall?: GeminiFunctionCall;
  functionResponse?: GeminiFunctionResponse;
  executableCode?: { language: 'LANGUAGE_UNSPECIFIED' | 'PYTHON'; code: string };
  codeExecutionResult?: { outcome: 'OUTCOME_UNSPECIFIED' | 'OUTCOME_OK' | 'OUTCOME_FAILED' | 'OUTCOME_DEADLINE_EXCEEDED'; output?: string };
  thought?: boolean;
  /** Opaque bytes (base64), valid only for Gemini. */
  thoughtSignature?: string;
  /** Durations as proto3 JSON strings ("5s"). */
  videoMetadata?: { startOffset?: string; endOffset?: string; fps?: number };
  partMetadata?: JsonObject;
}

export interface GeminiContent {
  role?: 'user' | 'model';
  parts: GeminiPart[];
}

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: JsonObject;
  parametersJsonSchema?: JsonValue;
  response?: JsonObject;
  responseJsonSchema?: JsonValue;
  behavior?: 'UNSPECIFIED' | 'BLOCKING' | 'NON_BLOCKING';
}

/** Built-in tools (googleSearch, codeExecution, urlContext, mcpServers ...) travel as opaque config. */
export interface GeminiTool {
  functionDeclarations?: GeminiFunctionDeclaration[];
  codeExecution?: JsonObject;
  urlContext?: JsonObject;
}

export type FunctionCallingMode = 'MODE_UNSPECIFIED' | 'AUTO' | 'ANY' | 'NONE' | 'VALIDATED';

export interface GeminiToolConfig {
  functionCallingConfig?: { mode?: FunctionCallingMode; allowedFunctionNames?: string[] };
}

export interface GeminiThinkingConfig {
  includeThoughts?: boolean;
  thinkingBudget?: number;
  /** A source's lower-case spelling is written back as it came. */
  thinkingLevel?: 'THINKING_LEVEL_UNSPECIFIED' | 'MINIMAL' | 'LOW' | 'MEDIUM' | 'HIGH';
}

export interface GeminiGenerationConfig {
  candidateCount?: number;
  stopSequences?: string[];
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  responseMimeType?: string;
  responseSchema?: JsonObject;
  responseJsonSchema?: JsonValue;
  thinkingConfig?: GeminiThinkingConfig;
}

/** The generateContent body. The model is in the URL (`models/{model}:generateContent`). */
export interface GeminiRequest {
  /** Not sent by the SDKs (the URL names the model); accepted and kept when a body carries it. */
  model?: string;
  contents: GeminiContent[];
  systemInstruction?: GeminiContent;
  tools?: GeminiTool[];
  toolConfig?: GeminiToolConfig;
  safetySettings?: { category: string; threshold: string; method?: string }[];
  generationConfig?: GeminiGenerationConfig;
  cachedContent?: string;
  labels?: { [key: string]: string };
}

export type GeminiFinishReason =
  | 'FINISH_REASON_UNSPECIFIED' | 'STOP' | 'MAX_TOKENS' | 'SAFETY' | 'RECITATION' | 'LANGUAGE' | 'OTHER' | 'BLOCKLIST'
  | 'PROHIBITED_CONTENT' | 'SPII' | 'MALFORMED_FUNCTION_CALL' | 'IMAGE_SAFETY' | 'IMAGE_PROHIBITED_CONTENT' | 'IMAGE_OTHER'
  | 'NO_IMAGE' | 'IMAGE_RECITATION' | 'UNEXPECTED_TOOL_CALL' | 'TOO_MANY_TOOL_CALLS' | 'MODEL_ARMOR';

export interface GeminiCandidate {
  index?: number;
  content?: Partial<GeminiContent>;
  /** A value newer than this list is written back as it came. MODEL_ARMOR is Vertex's. */
  finishReason?: GeminiFinishReason;
  finishMessage?: string;
  safetyRatings?: JsonObject[];
  citationMetadata?: JsonObject;
  groundingMetadata?: JsonObject;
  avgLogprobs?: number;
}

export interface GeminiUsageMetadata {
  promptTokenCount?: number;
  cachedContentTokenCount?: number;
  candidatesTokenCount?: number;
  toolUsePromptTokenCount?: number;
  thoughtsTokenCount?: number;
  totalTokenCount?: number;
}

export interface GeminiResponse {
  candidates?: GeminiCandidate[];
  promptFeedback?: { blockReason?: 'SAFETY' | 'OTHER' | 'BLOCKLIST' | 'PROHIBITED_CONTENT' | 'IMAGE_SAFETY' | 'MODEL_ARMOR' | 'JAILBREAK' };
  usageMetadata?: GeminiUsageMetadata;
  modelVersion?: string;
  responseId?: string;
  createTime?: string;
}
