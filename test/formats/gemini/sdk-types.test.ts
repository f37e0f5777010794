/**
 * Compile-time check that the Gemini wire types describe what the official @google/genai SDK
 * models: `npm run typecheck` fails if GeminiRequest / GeminiResponse drift from the SDK's REST
 * shapes. GenerateContentParameters is the SDK's call shape (config flattened), not the REST body,
 * so the REST members are checked one by one: Content, Part, Tool, FunctionDeclaration,
 * ToolConfig, GenerationConfig, SafetySetting, Candidate, usage metadata and prompt feedback.
 * The SDK types its enums as TypeScript enums; `Wire<T>` turns them into their string values,
 * which is what travels in JSON. The `@ts-expect-error` lines prove the check can fail.
 */
import type {
  Candidate,
  Content,
  FunctionDeclaration,
  GenerateContentResponse,
  GenerateContentResponsePromptFeedback,
  GenerateContentResponseUsageMetadata,
  GenerationConfig,
  Part,
  SafetySetting,
  Tool,
  ToolConfig,
} from '@google/genai';
import { describe, expect, it } from 'vitest';
import type { GeminiRequest, GeminiResponse } from '../../../src/formats/gemini/index.js';
import { decodeResponse, encodeRequest, encodeResponse, fixture, decodeRequest } from './helpers.js';

/** An SDK type as JSON: string enums become their values, recursively. */
type Wire<T> = T extends string
  ? `${T}`
  : T extends readonly (infer U)[]
    ? Wire<U>[]
    : T extends (...args: never[]) => unknown
      ? never
      : T extends object
        ? { [K in keyof T]: Wire<T[K]> }
        : T;

type Req = GeminiRequest;
type Res = GeminiResponse;
type Item<T> = T extends readonly (infer U)[] ? U : never;

const contentFits = (c: Req['contents'][number]): Wire<Content> => c;
const partFits = (p: Req['contents'][number]['parts'][number]): Wire<Part> => p;
const toolFits = (t: Item<NonNullable<Req['tools']>>): Wire<Tool> => t;
const declarationFits = (d: Item<NonNullable<Item<NonNullable<Req['tools']>>['functionDeclarations']>>): Wire<Omit<FunctionDeclaration, 'parameters' | 'response'>> => d;
const toolConfigFits = (t: NonNullable<Req['toolConfig']>): Wire<ToolConfig> => t;
const generationFits = (g: Omit<NonNullable<Req['generationConfig']>, 'responseSchema'>): Wire<GenerationConfig> => g;
const safetyFits = (s: Pick<Item<NonNullable<Req['safetySettings']>>, 'method'>): Pick<Wire<SafetySetting>, 'method'> | { method?: string } => s;
type CandidateData = Omit<Item<NonNullable<Res['candidates']>>, 'safetyRatings' | 'citationMetadata' | 'groundingMetadata' | 'finishReason'>;
const candidateFits = (c: CandidateData): Wire<Omit<Candidate, 'safetyRatings' | 'citationMetadata' | 'groundingMetadata'>> => c;
// MODEL_ARMOR is in the Vertex proto's FinishReason but not (yet) in the SDK's enum.
const finishFits = (f: Exclude<NonNullable<Item<NonNullable<Res['candidates']>>['finishReason']>, 'MODEL_ARMOR'>): Wire<NonNullable<Candidate['finishReason']>> => f;
const usageFits = (u: NonNullable<Res['usageMetadata']>): Wire<GenerateContentResponseUsageMetadata> => u;
const feedbackFits = (f: NonNullable<Res['promptFeedback']>): Wire<Omit<GenerateContentResponsePromptFeedback, 'safetyRatings'>> => f;
type ResponseData = Pick<GenerateContentResponse, 'modelVersion' | 'responseId' | 'createTime'>;
const responseFits = (r: Pick<Res, 'modelVersion' | 'responseId' | 'createTime'>): Wire<ResponseData> => r;

// The check bites: shapes the SDK does not allow are compile errors.
// @ts-expect-error a part's text is a string
const badPart: Wire<Part> = { text: 1 };
// @ts-expect-error 'SOMETIMES' is no FunctionCallingConfig mode
const badMode: Wire<ToolConfig> = { functionCallingConfig: { mode: 'SOMETIMES' } };
// @ts-expect-error 'DONE' is no finish reason
const badFinish: Wire<Candidate> = { finishReason: 'DONE' };

describe('wire types against the @google/genai SDK', () => {
  it('type what the encoders write (typed results)', () => {
    const req = encodeRequest(decodeRequest(fixture('requests/tools.json'))).value as unknown as GeminiRequest;
    const first = req.contents[1];
    expect(first && contentFits(first).role).toBe('model');
    expect(first?.parts[0] && partFits(first.parts[0]).functionCall?.name).toBe('get_weather');
    const tool = req.tools?.[0];
    const decl = tool?.functionDeclarations?.[0];
    expect(tool && toolFits(tool).functionDeclarations?.length).toBe(1);
    expect(decl && declarationFits(decl).behavior).toBe('BLOCKING');
    expect(req.toolConfig && toolConfigFits(req.toolConfig).functionCallingConfig?.mode).toBe('ANY');
    const text = encodeRequest(decodeRequest(fixture('requests/text.json'))).value as unknown as GeminiRequest;
    expect(text.generationConfig && generationFits(text.generationConfig).maxOutputTokens).toBe(1024);
    const res = encodeResponse(decodeResponse(fixture('responses/vertex-reasoning.json'))).value as unknown as GeminiResponse;
    const cand = res.candidates?.[0];
    expect(cand && candidateFits(cand).index).toBe(0);
    expect(finishFits('STOP')).toBe(cand?.finishReason);
    expect(res.usageMetadata && usageFits(res.usageMetadata).thoughtsTokenCount).toBe(5);
    expect(responseFits(res).modelVersion).toBe('gemini-2.5-pro');
    const blocked = encodeResponse(decodeResponse(fixture('responses/vertex-blocked.json'))).value as unknown as GeminiResponse;
    expect(blocked.promptFeedback && feedbackFits(blocked.promptFeedback).blockReason).toBe('SAFETY');
    expect([safetyFits, badPart, badMode, badFinish].every((x) => x !== undefined)).toBe(true);
  });
});
