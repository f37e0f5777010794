/**
 * A structural validator of Gemini generateContent REST bodies, hand-written from the official
 * protos (google.ai.generativelanguage.v1beta and google.cloud.aiplatform.v1; copies and origin in
 * test/fixtures/schemas/gemini/). Each message lists its known fields (both proto3 JSON spellings
 * are accepted: lowerCamelCase and the proto's snake_case), enum fields take the proto's values,
 * REQUIRED fields must be there, and a Part holds exactly one member of its `data` oneof.
 * Function-declaration `parameters` / `responseSchema` are checked against the v1beta `Schema`
 * message, the subset both APIs take. Messages that are pure metadata (grounding, citations,
 * logprobs, speech and image config) are checked to be objects only.
 *
 * validateGemini(kind, value) returns one line per problem, each starting with its JSON path;
 * an empty list means valid.
 */

type Field =
  | 'string' | 'number' | 'integer' | 'boolean' | 'bytes' | 'duration' | 'struct' | 'any'
  | { enum: readonly string[]; caseInsensitive?: true }
  | { array: Field }
  | { map: Field }
  | { ref: string };

interface Message {
  fields: Record<string, Field>;
  required?: readonly string[];
  /** Exactly one of these members must be set. */
  oneOf?: readonly string[];
  /** Extra per-message check. */
  check?: (value: Record<string, unknown>, path: string, out: string[]) => void;
}

const HARM_CATEGORIES = [
  'HARM_CATEGORY_UNSPECIFIED', 'HARM_CATEGORY_DEROGATORY', 'HARM_CATEGORY_TOXICITY', 'HARM_CATEGORY_VIOLENCE',
  'HARM_CATEGORY_SEXUAL', 'HARM_CATEGORY_MEDICAL', 'HARM_CATEGORY_DANGEROUS', 'HARM_CATEGORY_HARASSMENT',
  'HARM_CATEGORY_HATE_SPEECH', 'HARM_CATEGORY_SEXUALLY_EXPLICIT', 'HARM_CATEGORY_DANGEROUS_CONTENT',
  'HARM_CATEGORY_CIVIC_INTEGRITY', 'HARM_CATEGORY_JAILBREAK', 'HARM_CATEGORY_IMAGE_HATE',
  'HARM_CATEGORY_IMAGE_DANGEROUS_CONTENT', 'HARM_CATEGORY_IMAGE_HARASSMENT', 'HARM_CATEGORY_IMAGE_SEXUALLY_EXPLICIT',
] as const;
/** Candidate.FinishReason of v1beta and Vertex v1 together (their numbers differ, names agree). */
export const FINISH_REASONS = [
  'FINISH_REASON_UNSPECIFIED', 'STOP', 'MAX_TOKENS', 'SAFETY', 'RECITATION', 'LANGUAGE', 'OTHER', 'BLOCKLIST',
  'PROHIBITED_CONTENT', 'SPII', 'MALFORMED_FUNCTION_CALL', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'IMAGE_OTHER',
  'NO_IMAGE', 'IMAGE_RECITATION', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS', 'MODEL_ARMOR',
] as const;
export const BLOCK_REASONS = ['BLOCK_REASON_UNSPECIFIED', 'SAFETY', 'OTHER', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'IMAGE_SAFETY', 'MODEL_ARMOR', 'JAILBREAK'] as const;
export const MODES = ['MODE_UNSPECIFIED', 'AUTO', 'ANY', 'NONE', 'VALIDATED'] as const;
const TYPES = ['TYPE_UNSPECIFIED', 'STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL'] as const;
const MODALITIES = ['MODALITY_UNSPECIFIED', 'TEXT', 'IMAGE', 'VIDEO', 'AUDIO', 'DOCUMENT'] as const;
const MEDIA_RESOLUTIONS = ['MEDIA_RESOLUTION_UNSPECIFIED', 'MEDIA_RESOLUTION_LOW', 'MEDIA_RESOLUTION_MEDIUM', 'MEDIA_RESOLUTION_HIGH', 'MEDIA_RESOLUTION_ULTRA_HIGH'] as const;
/** FunctionDeclaration.name: a-z, A-Z, 0-9, underscores, colons, dots and dashes, 64 at most, not starting with a digit. */
const FUNCTION_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;

const ratings: Field = { array: { ref: 'SafetyRating' } };

const MESSAGES: Record<string, Message> = {
  GenerateContentRequest: {
    fields: {
      model: 'string', contents: { array: { ref: 'Content' } }, systemInstruction: { ref: 'Content' }, tools: { array: { ref: 'Tool' } },
      toolConfig: { ref: 'ToolConfig' }, safetySettings: { array: { ref: 'SafetySetting' } }, generationConfig: { ref: 'GenerationConfig' },
      cachedContent: 'string', labels: { map: 'string' }, modelArmorConfig: { ref: 'ModelArmorConfig' },
    },
    required: ['contents'],
  },
  Content: { fields: { parts: { array: { ref: 'Part' } }, role: { enum: ['user', 'model'] } } },
  Part: {
    fields: {
      text: 'string', inlineData: { ref: 'Blob' }, functionCall: { ref: 'FunctionCall' }, functionResponse: { ref: 'FunctionResponse' },
      fileData: { ref: 'FileData' }, executableCode: { ref: 'ExecutableCode' }, codeExecutionResult: { ref: 'CodeExecutionResult' },
      videoMetadata: { ref: 'VideoMetadata' }, thought: 'boolean', thoughtSignature: 'bytes', partMetadata: 'struct',
      mediaResolution: { ref: 'PartMediaResolution' },
    },
    oneOf: ['text', 'inlineData', 'functionCall', 'functionResponse', 'fileData', 'executableCode', 'codeExecutionResult'],
  },
  PartMediaResolution: { fields: { level: { enum: MEDIA_RESOLUTIONS }, numTokens: 'integer' } },
  Blob: { fields: { mimeType: 'string', data: 'bytes', displayName: 'string' }, required: ['mimeType', 'data'] },
  FileData: { fields: { mimeType: 'string', fileUri: 'string', displayName: 'string' }, required: ['fileUri'] },
  VideoMetadata: { fields: { startOffset: 'duration', endOffset: 'duration', fps: 'number' } },
  FunctionCall: {
    fields: { id: 'string', name: 'string', args: 'struct', partialArgs: { array: 'struct' }, willContinue: 'boolean' },
    required: ['name'],
  },
  FunctionResponse: {
    fields: {
      id: 'string', name: 'string', response: 'struct', parts: { array: { ref: 'FunctionResponsePart' } }, willContinue: 'boolean',
      scheduling: { enum: ['SCHEDULING_UNSPECIFIED', 'SILENT', 'WHEN_IDLE', 'INTERRUPT'] },
    },
    required: ['name', 'response'],
  },
  FunctionResponsePart: { fields: { inlineData: { ref: 'Blob' }, fileData: { ref: 'FileData' } }, oneOf: ['inlineData', 'fileData'] },
  ExecutableCode: { fields: { language: { enum: ['LANGUAGE_UNSPECIFIED', 'PYTHON'] }, code: 'string', id: 'string' }, required: ['language', 'code'] },
  CodeExecutionResult: {
    fields: { outcome: { enum: ['OUTCOME_UNSPECIFIED', 'OUTCOME_OK', 'OUTCOME_FAILED', 'OUTCOME_DEADLINE_EXCEEDED'] }, output: 'string', id: 'string' },
    required: ['outcome'],
  },
  Tool: {
    fields: {
      functionDeclarations: { array: { ref: 'FunctionDeclaration' } }, googleSearchRetrieval: 'struct', codeExecution: 'struct',
      googleSearch: 'struct', computerUse: 'struct', urlContext: 'struct', fileSearch: 'struct', googleMaps: 'struct',
      retrieval: 'struct', enterpriseWebSearch: 'struct', mcpServers: { array: 'struct' },
    },
  },
  FunctionDeclaration: {
    fields: {
      name: 'string', description: 'string', parameters: { ref: 'Schema' }, parametersJsonSchema: 'any', response: { ref: 'Schema' },
      responseJsonSchema: 'any', behavior: { enum: ['UNSPECIFIED', 'BLOCKING', 'NON_BLOCKING'] },
    },
    required: ['name'],
    check: (v, path, out) => {
      if (typeof v['name'] === 'string' && !FUNCTION_NAME.test(v['name'])) out.push(`${path}.name: '${v['name']}' is not a valid function name`);
      if (has(v, 'parameters') && has(v, 'parametersJsonSchema')) out.push(`${path}: parameters and parametersJsonSchema are mutually exclusive`);
    },
  },
  Schema: {
    fields: {
      type: { enum: TYPES, caseInsensitive: true }, format: 'string', title: 'string', description: 'string', nullable: 'boolean',
      enum: { array: 'string' }, items: { ref: 'Schema' }, maxItems: 'integer', minItems: 'integer', properties: { map: { ref: 'Schema' } },
      required: { array: 'string' }, minProperties: 'integer', maxProperties: 'integer', minimum: 'number', maximum: 'number',
      minLength: 'integer', maxLength: 'integer', pattern: 'string', example: 'any', anyOf: { array: { ref: 'Schema' } },
      propertyOrdering: { array: 'string' }, default: 'any',
    },
  },
  ToolConfig: { fields: { functionCallingConfig: { ref: 'FunctionCallingConfig' }, retrievalConfig: 'struct' } },
  FunctionCallingConfig: {
    fields: { mode: { enum: MODES }, allowedFunctionNames: { array: 'string' }, streamFunctionCallArguments: 'boolean' },
    check: (v, path, out) => {
      const names = field(v, 'allowedFunctionNames');
      if (names !== undefined && field(v, 'mode') !== 'ANY' && field(v, 'mode') !== 'VALIDATED') out.push(`${path}.allowedFunctionNames: only allowed with mode ANY or VALIDATED`);
    },
  },
  SafetySetting: {
    fields: {
      category: { enum: HARM_CATEGORIES },
      threshold: { enum: ['HARM_BLOCK_THRESHOLD_UNSPECIFIED', 'BLOCK_LOW_AND_ABOVE', 'BLOCK_MEDIUM_AND_ABOVE', 'BLOCK_ONLY_HIGH', 'BLOCK_NONE', 'OFF'] },
      method: { enum: ['HARM_BLOCK_METHOD_UNSPECIFIED', 'SEVERITY', 'PROBABILITY'] },
    },
    required: ['category', 'threshold'],
  },
  ModelArmorConfig: { fields: { promptTemplateName: 'string', responseTemplateName: 'string' } },
  GenerationConfig: {
    fields: {
      candidateCount: 'integer', stopSequences: { array: 'string' }, maxOutputTokens: 'integer', temperature: 'number', topP: 'number',
      topK: 'number', seed: 'integer', responseMimeType: 'string', responseSchema: { ref: 'Schema' }, responseJsonSchema: 'any',
      presencePenalty: 'number', frequencyPenalty: 'number', responseLogprobs: 'boolean', logprobs: 'integer',
      enableEnhancedCivicAnswers: 'boolean', responseModalities: { array: { enum: ['MODALITY_UNSPECIFIED', 'TEXT', 'IMAGE', 'AUDIO'] } },
      speechConfig: 'struct', thinkingConfig: { ref: 'ThinkingConfig' }, imageConfig: 'struct', mediaResolution: { enum: MEDIA_RESOLUTIONS },
      routingConfig: 'struct', audioTimestamp: 'boolean', modelSelectionConfig: 'struct', enableAffectiveDialog: 'boolean',
    },
    check: (v, path, out) => {
      if (has(v, 'responseSchema') && has(v, 'responseJsonSchema')) out.push(`${path}: responseSchema and responseJsonSchema are mutually exclusive`);
      if ((has(v, 'responseSchema') || has(v, 'responseJsonSchema')) && field(v, 'responseMimeType') === undefined) out.push(`${path}.responseMimeType: required with a response schema`);
    },
  },
  ThinkingConfig: {
    fields: { includeThoughts: 'boolean', thinkingBudget: 'integer', thinkingLevel: { enum: ['THINKING_LEVEL_UNSPECIFIED', 'LOW', 'MEDIUM', 'HIGH', 'MINIMAL'], caseInsensitive: true } },
  },
  GenerateContentResponse: {
    fields: {
      candidates: { array: { ref: 'Candidate' } }, promptFeedback: { ref: 'PromptFeedback' }, usageMetadata: { ref: 'UsageMetadata' },
      modelVersion: 'string', responseId: 'string', createTime: 'string',
      // Not in the published protos but sent by the Developer API (js-genai recordings).
      turnToken: 'string',
    },
  },
  PromptFeedback: { fields: { blockReason: { enum: BLOCK_REASONS }, safetyRatings: ratings, blockReasonMessage: 'string' } },
  Candidate: {
    fields: {
      index: 'integer', content: { ref: 'Content' }, finishReason: { enum: FINISH_REASONS }, finishMessage: 'string', safetyRatings: ratings,
      citationMetadata: 'struct', tokenCount: 'integer', groundingAttributions: { array: 'struct' }, groundingMetadata: 'struct',
      avgLogprobs: 'number', logprobsResult: 'struct', urlContextMetadata: 'struct', score: 'number',
    },
  },
  SafetyRating: {
    fields: {
      category: { enum: HARM_CATEGORIES }, probability: { enum: ['HARM_PROBABILITY_UNSPECIFIED', 'NEGLIGIBLE', 'LOW', 'MEDIUM', 'HIGH'] },
      blocked: 'boolean', probabilityScore: 'number', severity: 'string', severityScore: 'number', overwrittenThreshold: 'string',
    },
  },
  UsageMetadata: {
    fields: {
      promptTokenCount: 'integer', cachedContentTokenCount: 'integer', candidatesTokenCount: 'integer', toolUsePromptTokenCount: 'integer',
      thoughtsTokenCount: 'integer', totalTokenCount: 'integer', promptTokensDetails: { array: { ref: 'ModalityTokenCount' } },
      cacheTokensDetails: { array: { ref: 'ModalityTokenCount' } }, candidatesTokensDetails: { array: { ref: 'ModalityTokenCount' } },
      toolUsePromptTokensDetails: { array: { ref: 'ModalityTokenCount' } }, trafficType: 'string', billablePromptUsage: 'struct',
    },
  },
  ModalityTokenCount: { fields: { modality: { enum: MODALITIES }, tokenCount: 'integer' } },
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const snake = (k: string): string => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const camel = (k: string): string => k.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
function field(v: Record<string, unknown>, name: string): unknown {
  return v[name] !== undefined ? v[name] : v[snake(name)];
}
function has(v: Record<string, unknown>, name: string): boolean {
  return field(v, name) !== undefined;
}
const at = (path: string, key: string | number): string => (typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`);
const where = (path: string): string => (path === '' ? '(root)' : path);

function checkField(f: Field, v: unknown, path: string, out: string[]): void {
  if (v === null) {
    out.push(`${where(path)}: null is not a value of this field`);
    return;
  }
  if (typeof f === 'string') {
    switch (f) {
      case 'string':
      case 'duration':
        if (typeof v !== 'string') out.push(`${where(path)}: expected a string`);
        else if (f === 'duration' && !/^-?\d+(\.\d+)?s$/.test(v)) out.push(`${where(path)}: expected a duration such as "5s"`);
        return;
      case 'bytes':
        if (typeof v !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(v)) out.push(`${where(path)}: expected base64 bytes`);
        return;
      case 'number':
        if (typeof v !== 'number') out.push(`${where(path)}: expected a number`);
        return;
      case 'integer':
        // int64 fields may be written as decimal strings in proto3 JSON.
        if (!(typeof v === 'number' && Number.isInteger(v)) && !(typeof v === 'string' && /^-?\d+$/.test(v))) out.push(`${where(path)}: expected an integer`);
        return;
      case 'boolean':
        if (typeof v !== 'boolean') out.push(`${where(path)}: expected a boolean`);
        return;
      case 'struct':
        if (!isObject(v)) out.push(`${where(path)}: expected an object`);
        return;
      case 'any':
        return;
    }
  }
  if ('enum' in f) {
    const ok = typeof v === 'string' && (f.enum.includes(v) || (f.caseInsensitive === true && f.enum.includes(v.toUpperCase())));
    if (!ok) out.push(`${where(path)}: ${JSON.stringify(v)} is not one of ${f.enum.join(', ')}`);
    return;
  }
  if ('array' in f) {
    if (!Array.isArray(v)) out.push(`${where(path)}: expected an array`);
    else v.forEach((x, i) => checkField(f.array, x, at(path, i), out));
    return;
  }
  if ('map' in f) {
    if (!isObject(v)) out.push(`${where(path)}: expected an object`);
    else for (const k of Object.keys(v)) checkField(f.map, v[k], at(path, k), out);
    return;
  }
  checkMessage(f.ref, v, path, out);
}

function checkMessage(name: string, v: unknown, path: string, out: string[]): void {
  const spec = MESSAGES[name];
  if (spec === undefined) throw new Error(`no message ${name}`);
  if (!isObject(v)) {
    out.push(`${where(path)}: expected a ${name} object`);
    return;
  }
  for (const key of Object.keys(v)) {
    const name2 = key in spec.fields ? key : camel(key);
    const f = spec.fields[name2];
    if (f === undefined) {
      out.push(`${at(path, key)}: unknown field of ${name}`);
      continue;
    }
    if (name2 !== key && key in spec.fields === false && v[name2] !== undefined) out.push(`${at(path, key)}: given in both spellings`);
    checkField(f, v[key], at(path, key), out);
  }
  for (const req of spec.required ?? []) if (!has(v, req)) out.push(`${at(path, req)}: required field missing`);
  if (spec.oneOf) {
    const set = spec.oneOf.filter((m) => has(v, m));
    if (set.length !== 1) out.push(`${where(path)}: exactly one of ${spec.oneOf.join(', ')} must be set (found ${set.length === 0 ? 'none' : set.join(', ')})`);
  }
  spec.check?.(v, where(path), out);
}

export function validateGemini(kind: 'request' | 'response', value: unknown): string[] {
  const out: string[] = [];
  checkMessage(kind === 'request' ? 'GenerateContentRequest' : 'GenerateContentResponse', value, '', out);
  return out;
}

/** The fields the validator knows for a message (camelCase), for the coverage test against the protos. */
export function knownFields(message: string): string[] | undefined {
  const spec = MESSAGES[message];
  return spec === undefined ? undefined : Object.keys(spec.fields);
}
