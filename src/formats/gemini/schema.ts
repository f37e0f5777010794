/**
 * zod schemas for inbound Gemini bodies: shape and types only. Every field is optional here and
 * accepted in both proto3 JSON spellings (camelCase and snake_case); required fields and the
 * "exactly one data member per part" rule are checked in validate.ts, which reads either spelling.
 * Unknown keys are accepted (newer API fields; they are residue to the decoder, which reads the
 * original object, not zod's output).
 */
import { z } from 'zod';
import { snakeCase } from './wire-util.js';

type Shape = Record<string, z.ZodType>;

/** An object schema whose every field is optional and may be spelled camelCase or snake_case. */
function msg(shape: Shape) {
  const full: Shape = {};
  for (const [key, type] of Object.entries(shape)) {
    full[key] = type.optional();
    const snake = snakeCase(key);
    if (snake !== key) full[snake] = type.optional();
  }
  return z.object(full);
}

const record = z.record(z.string(), z.unknown());
const Blob = msg({ mimeType: z.string(), data: z.string() });

const Part = msg(
  {
    text: z.string(),
    inlineData: Blob,
    fileData: msg({ mimeType: z.string(), fileUri: z.string() }),
    functionCall: msg({ id: z.string(), name: z.string(), args: record }),
    functionResponse: msg({
      id: z.string(),
      name: z.string(),
      response: record,
      parts: z.array(msg({ inlineData: Blob })),
      willContinue: z.boolean(),
    }),
    executableCode: msg({ language: z.string(), code: z.string() }),
    codeExecutionResult: msg({ outcome: z.string(), output: z.string() }),
    thought: z.boolean(),
    thoughtSignature: z.string(),
    videoMetadata: record,
    partMetadata: record,
    mediaResolution: z.unknown(),
  },
);

export const ContentSchema = msg({ role: z.enum(['user', 'model']), parts: z.array(Part) });

const FunctionDeclaration = msg({
  name: z.string(),
  description: z.string(),
  parameters: record,
  parametersJsonSchema: z.unknown(),
  response: record,
  responseJsonSchema: z.unknown(),
  behavior: z.string(),
});

const Tool = msg({ functionDeclarations: z.array(FunctionDeclaration) });

const FunctionCallingConfig = msg({
  mode: z.enum(['MODE_UNSPECIFIED', 'AUTO', 'ANY', 'NONE', 'VALIDATED']),
  allowedFunctionNames: z.array(z.string()),
});

const ThinkingConfig = msg({ includeThoughts: z.boolean(), thinkingBudget: z.number().int(), thinkingLevel: z.string() });

const GenerationConfig = msg({
  candidateCount: z.number().int(),
  stopSequences: z.array(z.string()),
  maxOutputTokens: z.number().int(),
  temperature: z.number(),
  topP: z.number(),
  topK: z.number(),
  seed: z.number().int(),
  presencePenalty: z.number(),
  frequencyPenalty: z.number(),
  responseMimeType: z.string(),
  responseSchema: record,
  thinkingConfig: ThinkingConfig,
});

export const requestSchema = msg({
  model: z.string(),
  contents: z.array(ContentSchema),
  systemInstruction: ContentSchema,
  // Google's JSON parser also takes one object for a repeated field (a real capture sends tools so).
  tools: z.union([z.array(Tool), Tool]),
  toolConfig: msg({ functionCallingConfig: FunctionCallingConfig }),
  safetySettings: z.array(record),
  generationConfig: GenerationConfig,
  cachedContent: z.string(),
  labels: z.record(z.string(), z.string()),
});

const count = z.number().int().nonnegative();
const UsageMetadata = msg({
  promptTokenCount: count,
  cachedContentTokenCount: count,
  candidatesTokenCount: count,
  toolUsePromptTokenCount: count,
  thoughtsTokenCount: count,
  totalTokenCount: count,
});

const Candidate = msg({
  index: z.number().int(),
  content: ContentSchema,
  finishReason: z.string(),
  finishMessage: z.string(),
  safetyRatings: z.array(record),
  citationMetadata: record,
  groundingMetadata: record,
  avgLogprobs: z.number(),
});

export const responseSchema = msg({
  candidates: z.array(Candidate),
  promptFeedback: msg({ blockReason: z.string(), safetyRatings: z.array(record) }),
  usageMetadata: UsageMetadata,
  modelVersion: z.string(),
  responseId: z.string(),
  createTime: z.string(),
});
