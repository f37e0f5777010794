/**
 * The table of agentgateway-dialects.test.ts: for each vector (`<dir>/<case>.<target>`), every
 * difference left after normalising, with who is right by the official docs and why
 * (docs/decisions/0003-agentgateway-dialect-vectors.md has the sources). A vector with no entry
 * agrees entirely.
 */
import { isObj, type Json, type Known, type Vector } from './agentgateway-support.js';

// --- Bedrock Converse requests ----------------------------------------------------------------
const MAX_TOKENS: Known = {
  verdict: 'ours',
  reason: 'Bedrock maxTokens is optional: "the default value is the maximum allowed value for the model" (InferenceConfiguration); theirs caps every answer at an invented 4096',
};
const STATUS_NULL: Known = {
  verdict: 'ours',
  reason: 'ToolResultBlock.status is optional, valid values success | error; an unset member is left out (as the AWS SDKs send it), null is no value of it',
};
const DESCRIPTION_NULL: Known = { verdict: 'ours', reason: 'ToolSpecification.description is an optional string: unset is left out, not null' };
const HISTORY_TOOLS: Known = {
  verdict: 'either',
  reason:
    'Bedrock refuses toolUse/toolResult blocks without a toolConfig; we declare each tool the history called (minimal schema, reported), they declare one dummy tool: both valid, neither is the client’s tool list',
  loss: 'tool-config-added',
};
const TOOL_CHOICE: Known = { verdict: 'ours', reason: 'the ToolConfiguration member is toolChoice; tool_choice is no Converse field' };
const MODEL_FIELDS: Known = {
  verdict: 'model',
  reason:
    'additionalModelRequestFields is the model’s own body: what it takes (Claude: top_k, thinking ...; Nova: other shapes) depends on the model; we drop and report, theirs forwards Claude fields',
  loss: 'unsupported-field',
};

// --- Gemini requests (the vectors target Vertex AI) ------------------------------------------
const CALL_ID: Known = {
  verdict: 'model',
  reason:
    'Gemini API v1beta FunctionCall.id / FunctionResponse.id pair a call with its response; Vertex AI v1 has no such field and answers 400 "Unknown name id" (vercel/ai#15664): depends on the endpoint',
};
const OUTPUT_KEY: Known = {
  verdict: 'ours',
  reason: 'FunctionResponse.response: "Use \'output\' key to specify function output and \'error\' key to specify error details" (v1beta and Vertex v1 protos); content is no such key',
};
/** The tool-call paths of a Gemini vector: each call's id, each response's id and output key. */
function geminiTools(calls: string[], responses: string[]): Record<string, Known> {
  const out: Record<string, Known> = {};
  for (const c of calls) out[`contents.${c}.functionCall.id`] = CALL_ID;
  for (const r of responses) {
    out[`contents.${r}.functionResponse.id`] = CALL_ID;
    out[`contents.${r}.functionResponse.response.content`] = OUTPUT_KEY;
    out[`contents.${r}.functionResponse.response.output`] = OUTPUT_KEY;
  }
  return out;
}

const THINKING: Known = {
  verdict: 'model',
  reason: 'thinkingLevel is the Gemini 3 setting, thinkingBudget the Gemini 2.5 one (both in Vertex ThinkingConfig); which one the model takes is the model’s, and their budgets are invented',
};
const THINKING_MAX: Known = { ...THINKING, reason: `${THINKING.reason}; effort xhigh has no level above high (reported)`, loss: 'reasoning-effort' };
const THOUGHTS: Known = {
  verdict: 'either',
  reason: 'includeThoughts asks for thought summaries; a Chat Completions client has no slot for them (dropped on the way back), so asking is harmless and useless',
};

// --- Responses requests -----------------------------------------------------------------------
const STRICT: Known = {
  verdict: 'ours',
  reason: 'FunctionTool.strict is required (nullable) in the OpenAPI spec, and an Anthropic schema is not written for strict mode: we say false, theirs leaves it to the API default',
};

const BREAKPOINT: Known = {
  verdict: 'theirs',
  reason: 'Chat Completions text parts take prompt_cache_breakpoint (GPT-5.6+), as Responses input_text does; we drop it (reported), as in 0002',
  loss: 'cache-control',
};

// --- responses --------------------------------------------------------------------------------
const REFUSAL: Known = { verdict: 'ours', reason: 'ChatCompletion message.refusal is a required (nullable) field' };
const LOGPROBS: Known = { verdict: 'ours', reason: 'ChatCompletion choices[].logprobs is a required (nullable) field' };
const CONTENT_NULL: Known = { verdict: 'ours', reason: 'ChatCompletion message.content is a required (nullable) field' };
const REASONING_CONTENT: Known = {
  verdict: 'ours',
  reason: 'the Chat Completions message has no reasoning field (reasoning_content is a DeepSeek/vLLM extension, reasoning_signature agentgateway’s own); we report the dropped reasoning',
  loss: 'foreign-reasoning',
};
const CACHE_INPUT: Known = {
  verdict: 'ours',
  reason:
    'OpenAI input/prompt tokens include cached tokens; Bedrock inputTokens exclude cache reads and writes (totalTokens 2412 = 16 + 9 + 2387), so they are added',
};
const CACHE_EXTRAS: Known = { verdict: 'ours', reason: 'not a Chat Completions usage field (cache counts go in prompt_tokens_details)' };
const ECHO: Known = {
  verdict: 'ours',
  reason: 'required by the Response object (OpenAPI Response.required: error, incomplete_details, instructions, tools, tool_choice, parallel_tool_calls, metadata, temperature, top_p)',
};
const ECHOES = Object.fromEntries(
  ['error', 'instructions', 'metadata', 'parallel_tool_calls', 'temperature', 'tool_choice', 'tools', 'top_p'].map((k) => [k, ECHO]),
) as Record<string, Known>;
const INCOMPLETE_NULL: Known = { verdict: 'ours', reason: 'Response.incomplete_details is required (null when complete)' };
const TEXT_LOGPROBS: Known = { verdict: 'ours', reason: 'OutputTextContent.logprobs is a required array; null is not allowed' };
const CACHE_WRITE: Known = { verdict: 'ours', reason: 'ResponseUsage.input_tokens_details requires cached_tokens and cache_write_tokens' };
const INCOMPLETE_REASON: Known = { verdict: 'ours', reason: 'incomplete_details.reason is max_output_tokens or content_filter; max_tokens is no value of it' };
const CUT_ITEM: Known = {
  verdict: 'ours',
  reason: 'the item cut off by max_output_tokens is incomplete (item status enum; a gpt-4o response cut this way marks its message incomplete, pydantic-ai#509); theirs says completed',
};
const ANT_TIER: Known = { verdict: 'ours', reason: "OpenAI 'default' is no Anthropic usage.service_tier (standard | priority | batch)", loss: 'unsupported-field' };
const CACHE_READ: Known = { verdict: 'ours', reason: 'Anthropic Usage has cache_read_input_tokens (nullable); the source says 0 tokens were read from the cache' };

/** Chat -> Responses and Bedrock -> Responses: what every converted response differs in. */
const RESPONSE: Record<string, Known> = { ...ECHOES, incomplete_details: INCOMPLETE_NULL, 'usage.input_tokens_details.cache_write_tokens': CACHE_WRITE };
const TEXT_RESPONSE: Record<string, Known> = { ...RESPONSE, 'output.0.content.0.logprobs': TEXT_LOGPROBS };
const CUT_RESPONSE: Record<string, Known> = { ...ECHOES, 'incomplete_details.reason': INCOMPLETE_REASON, 'usage.input_tokens_details.cache_write_tokens': CACHE_WRITE };

/** Our leading system message as agentgateway writes it: `instructions`, its texts joined by a newline. */
function systemAsInstructions(body: Json): Json {
  const [first, ...rest] = body['input'] as Json[];
  if (!isObj(first) || first['role'] !== 'system') return body;
  const texts = (first['content'] as Json[]).map((p) => p['text'] as string);
  return { ...body, input: rest, instructions: texts.join('\n') };
}

export const VECTORS: Record<string, Vector> = {
  // openai-chat -> bedrock-converse
  'requests/completions/basic.bedrock': { known: { inferenceConfig: MAX_TOKENS } },
  'requests/completions/full.bedrock': {
    known: {
      outputConfig: {
        verdict: 'ours',
        reason:
          'json_object has no Bedrock form: structured outputs need additionalProperties false on every object, so no schema means "any object"; we send none and report it (B4), theirs sets true',
        loss: 'json-object-format',
      },
      'toolConfig.toolChoice': TOOL_CHOICE,
      'toolConfig.tool_choice': TOOL_CHOICE,
    },
  },
  'requests/completions/parallel-tool-call.bedrock': {
    known: {
      inferenceConfig: MAX_TOKENS,
      'messages.2.content.0.toolResult.status': STATUS_NULL,
      'messages.2.content.1.toolResult.status': STATUS_NULL,
      'toolConfig.tools.0.toolSpec.description': DESCRIPTION_NULL,
      'toolConfig.tools.0.toolSpec.name': HISTORY_TOOLS,
    },
  },
  'requests/completions/reasoning.bedrock': { known: { inferenceConfig: MAX_TOKENS, additionalModelRequestFields: MODEL_FIELDS } },
  'requests/completions/reasoning_replay.bedrock': {
    known: {
      inferenceConfig: MAX_TOKENS,
      'messages.1.content': {
        verdict: 'ours',
        reason:
          'reasoning_content / reasoning_signature are no Chat Completions fields, and Bedrock uses a replayed thinking block only if the same AWS account produced it ("Preserved thinking"); we drop it, reported',
        loss: 'foreign-reasoning',
      },
    },
  },
  'requests/completions/reasoning_replay_unsigned.bedrock': { known: { inferenceConfig: MAX_TOKENS } },
  'requests/completions/tool-call.bedrock': {
    known: {
      inferenceConfig: MAX_TOKENS,
      'messages.2.content.0.toolResult.status': STATUS_NULL,
      'messages.2.content.1.toolResult.status': STATUS_NULL,
      'toolConfig.tools': HISTORY_TOOLS,
    },
  },

  // openai-chat -> gemini (Vertex)
  'requests/completions/basic.vertex-gemini': {},
  'requests/completions/generation-config.vertex-gemini': {},
  'requests/completions/image-file.vertex-gemini': {
    known: {
      'contents.0.parts.1.fileData.mimeType': {
        verdict: 'theirs',
        reason:
          'Vertex FileData.mime_type is required (optional on the Gemini API); theirs takes image/png from the file name, ours never guesses and sends none: valid only on the Gemini API',
        loss: 'media-kind',
      },
    },
  },
  'requests/completions/image-inline.vertex-gemini': {},
  'requests/completions/multi-turn-tools.vertex-gemini': { known: geminiTools(['1.parts.0', '3.parts.0'], ['2.parts.0', '4.parts.0']) },
  'requests/completions/parallel-tool-call.vertex-gemini': { known: geminiTools(['1.parts.0', '1.parts.1'], ['2.parts.0', '2.parts.1']) },
  'requests/completions/reasoning.vertex-gemini': {
    known: {
      'generationConfig.thinkingConfig.thinkingLevel': THINKING,
      'generationConfig.thinkingConfig.thinkingBudget': THINKING,
      'generationConfig.thinkingConfig.includeThoughts': THOUGHTS,
    },
  },
  'requests/completions/reasoning_max.vertex-gemini': {
    known: {
      'generationConfig.thinkingConfig.thinkingLevel': THINKING_MAX,
      'generationConfig.thinkingConfig.thinkingBudget': THINKING_MAX,
      'generationConfig.thinkingConfig.includeThoughts': THOUGHTS,
    },
  },
  'requests/completions/structured-output.vertex-gemini': {},
  'requests/completions/tool-call.vertex-gemini': { known: geminiTools(['1.parts.0', '1.parts.1'], ['2.parts.0', '2.parts.1']) },

  // anthropic-messages -> bedrock-converse
  'requests/messages/basic.bedrock': {},
  'requests/messages/metadata.bedrock': { known: { additionalModelRequestFields: MODEL_FIELDS } },
  'requests/messages/reasoning.bedrock': {
    rejects: {
      path: 'output_format',
      verdict: 'ours',
      reason: "output_format is the retired beta name of output_config.format, an object: 'markdown' is no valid value (as in 0002)",
    },
  },
  'requests/messages/reasoning_replay.bedrock': {
    known: {
      'messages.1.content': {
        verdict: 'ours',
        reason:
          'Bedrock uses a replayed thinking block only if the same AWS account (or customer group) produced it ("Preserved thinking"); one minted by Anthropic’s API is removed: we drop it, reported',
        loss: 'foreign-reasoning',
      },
    },
  },
  'requests/messages/server_tools.bedrock': {},
  'requests/messages/structured-output.bedrock': { known: { additionalModelRequestFields: MODEL_FIELDS } },
  'requests/messages/system_message.bedrock': {},
  'requests/messages/tool_history_without_tools.bedrock': {
    known: {
      messages: {
        verdict: 'ours',
        reason: 'Bedrock refuses a conversation that does not start with a user message (ValidationException); we put a user turn first (reported), theirs starts with the assistant',
        loss: 'leading-user-turn',
      },
      'toolConfig.tools.0.toolSpec.description': DESCRIPTION_NULL,
      'toolConfig.tools.0.toolSpec.name': HISTORY_TOOLS,
    },
  },
  'requests/messages/tools.bedrock': {},

  // anthropic-messages -> openai-responses
  'requests/messages/basic.responses': {},
  'requests/messages/responses_agent_subset.responses': {
    reshape: {
      side: 'ours',
      apply: systemAsInstructions,
      verdict: 'either',
      reason:
        'instructions is "a system (or developer) message inserted into the model’s context": our leading system message says the same (theirs joins its two blocks with a newline, ours keeps two parts; joined here to compare the rest)',
    },
    known: {
      'input.1.id': {
        verdict: 'ours',
        reason: 'the API checks item id prefixes (a function_call id must begin with fc_: "invalid_id_prefix"); theirs sends the call id call_weather as the item id',
      },
      'input.1.status': { verdict: 'either', reason: 'item status is optional in a request ("populated when items are returned via API")' },
      'input.2.output': { verdict: 'either', reason: 'function_call_output.output is a string or a list of input parts; one text part is the same text' },
      'input.2.status': { verdict: 'either', reason: 'item status is optional in a request' },
      metadata: {
        verdict: 'theirs',
        reason: 'Responses metadata is a string map like the source’s: theirs keeps trace_id, we drop metadata (reported) and keep only user_id',
        loss: 'unsupported-field',
      },
      user: { verdict: 'either', reason: 'we map metadata.user_id to the end-user id `user` (our convention), theirs leaves it in metadata' },
      'text.format.name': { verdict: 'either', reason: 'Responses json_schema needs a name; Anthropic has none, so any valid name will do' },
      'tools.0.strict': STRICT,
    },
  },
  'requests/messages/tools.responses': { known: { 'tools.0.strict': STRICT } },

  // openai-responses -> bedrock-converse
  'requests/responses/basic.bedrock': {},
  'requests/responses/input-list.bedrock': { known: { inferenceConfig: MAX_TOKENS } },
  'requests/responses/input-media.bedrock': {
    reshape: {
      side: 'theirs',
      apply: (body) => {
        const [m] = body['messages'] as Json[];
        const content = [...((m as Json)['content'] as Json[])];
        content.splice(4, 1);
        return { ...body, messages: [{ ...m, content }] };
      },
      verdict: 'either',
      reason:
        'a file typed application/octet-stream named notes.md: theirs takes the format from the name (md), we never guess a type and drop it (reported); both bodies are valid',
      loss: 'unsupported-media-type',
    },
    known: Object.fromEntries(
      [2, 3, 4, 5].map((i) => [
        `messages.0.content.${i}.document.name`,
        {
          verdict: 'either',
          reason: 'Bedrock names allow letters, digits, single spaces, hyphens, parentheses and brackets: report.pdf is report-pdf for us, report for them; both valid',
          loss: 'document-name',
        },
      ]),
    ),
  },
  'requests/responses/instructions.bedrock': {},
  'requests/responses/parallel-tool-call.bedrock': {
    known: {
      'messages.2.content.0.toolResult.status': STATUS_NULL,
      'messages.2.content.1.toolResult.status': STATUS_NULL,
      'toolConfig.tools.0.toolSpec.description': DESCRIPTION_NULL,
      'toolConfig.tools.0.toolSpec.name': HISTORY_TOOLS,
    },
  },
  'requests/responses/structured-output.bedrock': {},

  // openai-responses -> openai-chat (Gemini's OpenAI-compatible endpoint)
  'requests/responses/basic.gemini': {},
  'requests/responses/cache_control.gemini': {
    known: {
      'messages.0.content.0.prompt_cache_breakpoint': BREAKPOINT,
      'messages.1.content.0.prompt_cache_breakpoint': BREAKPOINT,
      'messages.1.role': { verdict: 'ours', reason: 'the input message says system and Chat Completions has a system role; theirs rewrites it to developer' },
    },
  },
  'requests/responses/input-list.gemini': {
    known: {
      stream_options: {
        verdict: 'theirs',
        reason: 'a Responses stream always ends with usage (response.completed); a Chat Completions stream has usage only with stream_options.include_usage, which theirs sets and we do not',
      },
    },
  },
  'requests/responses/instructions.gemini': {
    known: { 'messages.0.role': { verdict: 'either', reason: 'instructions is "a system (or developer) message": we write system, theirs developer; Chat Completions has both' } },
  },
  'requests/responses/parallel-tool-call.gemini': {},

  // gemini -> gemini (passthrough: our validated round trip)
  'requests/gemini/image-inline.gemini-native': {},
  'requests/gemini/passthrough-fields.gemini-native': {},
  'requests/gemini/structured-output.gemini-native': {},
  'requests/gemini/text.gemini-native': {},
  'requests/gemini/thinking.gemini-native': {},
  'requests/gemini/tools.gemini-native': {},

  // bedrock-converse -> openai-chat
  'response/bedrock/basic.bedrock-completions': { known: { 'choices.0.message.refusal': REFUSAL, 'choices.0.logprobs': LOGPROBS } },
  'response/bedrock/cache_write.bedrock-completions': {
    known: {
      'choices.0.message.refusal': REFUSAL,
      'choices.0.logprobs': LOGPROBS,
      'usage.prompt_tokens': CACHE_INPUT,
      'usage.cache_read_input_tokens': CACHE_EXTRAS,
      'usage.cache_creation_input_tokens': CACHE_EXTRAS,
    },
  },
  'response/bedrock/reasoning.bedrock-completions': {
    known: {
      'choices.0.message.refusal': REFUSAL,
      'choices.0.logprobs': LOGPROBS,
      'choices.0.message.reasoning_content': REASONING_CONTENT,
      'choices.0.message.reasoning_signature': REASONING_CONTENT,
    },
  },
  'response/bedrock/reasoning_unsigned.bedrock-completions': {
    known: { 'choices.0.message.refusal': REFUSAL, 'choices.0.logprobs': LOGPROBS, 'choices.0.message.reasoning_content': REASONING_CONTENT },
  },
  'response/bedrock/tool.bedrock-completions': {
    known: {
      'choices.0.message.refusal': REFUSAL,
      'choices.0.logprobs': LOGPROBS,
      'choices.0.message.content': CONTENT_NULL,
      usage: { verdict: 'ours', reason: 'the Bedrock body has no usage and ChatCompletion.usage is optional; theirs writes zeros, which are wrong counts' },
    },
  },

  // bedrock-converse -> anthropic-messages
  'response/bedrock/basic.bedrock-messages': {},
  'response/bedrock/reasoning.bedrock-messages': {
    known: {
      content: {
        verdict: 'either',
        reason:
          'a thinking block with Bedrock’s signature is valid Anthropic content, but only the same AWS account can use it ("Preserved thinking"); we drop it (reported; kept under preserve for the way back), theirs keeps it',
        loss: 'foreign-reasoning',
      },
    },
  },
  'response/bedrock/reasoning_unsigned.bedrock-messages': {
    known: {
      content: {
        verdict: 'ours',
        reason: 'theirs writes a thinking block with signature "": Anthropic verifies signatures, so the client’s next request would be refused; we drop unsigned reasoning (reported)',
        loss: 'foreign-reasoning',
      },
    },
  },
  'response/bedrock/tool.bedrock-messages': {},

  // bedrock-converse -> openai-responses
  'response/bedrock/basic.bedrock-responses': { known: TEXT_RESPONSE },
  'response/bedrock/cache_write.bedrock-responses': {
    known: { ...ECHOES, incomplete_details: INCOMPLETE_NULL, 'output.0.content.0.logprobs': TEXT_LOGPROBS, 'usage.input_tokens': CACHE_INPUT },
  },
  'response/bedrock/max_tokens.bedrock-responses': { known: { ...CUT_RESPONSE, 'output.0.content.0.logprobs': TEXT_LOGPROBS } },
  'response/bedrock/reasoning.bedrock-responses': {
    known: {
      ...RESPONSE,
      'output.0.content': {
        verdict: 'ours',
        reason: 'theirs writes the thinking as answer text (output_text), so the client shows hidden reasoning as the reply; a reasoning item needs OpenAI’s own id and content: we drop it, reported',
        loss: 'foreign-reasoning',
      },
    },
  },
  'response/bedrock/reasoning_unsigned.bedrock-responses': {
    known: {
      ...RESPONSE,
      'output.0.content': {
        verdict: 'ours',
        reason: 'as for reasoning: the thinking is not the answer',
        loss: 'foreign-reasoning',
      },
    },
  },
  'response/bedrock/tool.bedrock-responses': { known: { ...ECHOES, incomplete_details: INCOMPLETE_NULL } },

  // openai-responses -> anthropic-messages
  'response/responses/basic.responses-messages': { known: { 'usage.cache_read_input_tokens': CACHE_READ, 'usage.service_tier': ANT_TIER } },
  'response/responses/reasoning.responses-messages': { known: { 'usage.cache_read_input_tokens': CACHE_READ, 'usage.service_tier': ANT_TIER } },
  'response/responses/tool.responses-messages': { known: { 'usage.service_tier': ANT_TIER } },

  // openai-responses -> openai-responses (passthrough: our validated round trip)
  'response/responses/basic.responses-responses': {},
  'response/responses/custom-tool.responses-responses': {},
  'response/responses/truncated_tool_call.responses-responses': {},

  // openai-chat -> openai-responses
  'response/completions/audio.completions-responses': { known: TEXT_RESPONSE },
  'response/completions/basic.completions-responses': { known: TEXT_RESPONSE },
  'response/completions/gemini_with_completion_tokens.completions-responses': {
    known: { ...CUT_RESPONSE, 'output.0.content.0.logprobs': TEXT_LOGPROBS, 'output.0.status': CUT_ITEM },
  },
  'response/completions/gemini_zero_completion_tokens.completions-responses': {
    known: {
      ...CUT_RESPONSE,
      'usage.output_tokens': {
        verdict: 'either',
        reason: 'the source says completion_tokens 0 but total 8 = 7 + 1: we keep the provider’s count, theirs takes total minus prompt; neither is documented for an inconsistent body',
      },
    },
  },
  'response/completions/openrouter_reasoning.completions-responses': { known: TEXT_RESPONSE },
  'response/completions/tool_call.completions-responses': { known: RESPONSE },
  'response/completions/truncated_tool_call.completions-responses': { known: { ...CUT_RESPONSE, 'output.0.status': CUT_ITEM } },

  // gemini -> openai-chat
  'response/vertex-gemini/basic.vertex-gemini-completions': { known: { 'choices.0.message.refusal': REFUSAL, 'choices.0.logprobs': LOGPROBS } },
  'response/vertex-gemini/blocked.vertex-gemini-completions': {
    known: {
      choices: {
        verdict: 'theirs',
        reason:
          'a blocked prompt (promptFeedback.blockReason, no candidate): theirs answers one choice with finish_reason content_filter, ours an empty choices list (valid, promptFeedback reported), which clients reading choices[0] fail on',
        loss: 'unsupported-field',
      },
    },
  },
  'response/vertex-gemini/reasoning.vertex-gemini-completions': {
    known: { 'choices.0.message.refusal': REFUSAL, 'choices.0.logprobs': LOGPROBS, 'choices.0.message.reasoning_content': REASONING_CONTENT },
  },
  'response/vertex-gemini/tool.vertex-gemini-completions': {
    known: { 'choices.0.message.refusal': REFUSAL, 'choices.0.logprobs': LOGPROBS, 'choices.0.message.content': CONTENT_NULL },
  },

  // gemini -> gemini (passthrough)
  'response/vertex-gemini/basic.gemini-native': {},
  'response/vertex-gemini/blocked.gemini-native': {
    known: { candidates: { verdict: 'either', reason: 'the body had candidates: [] and we give it back; theirs leaves it out: in proto3 JSON an empty repeated field is the same as absent' } },
  },
  'response/vertex-gemini/reasoning.gemini-native': {},
  'response/vertex-gemini/tool.gemini-native': {},
};

/**
 * requests/messages/reasoning.bedrock once its invalid `output_format` is taken out (we refuse the
 * vector as it is): what is left differs only here.
 */
export const REASONING_WITHOUT_FORMAT: Vector = {
  known: {
    additionalModelRequestFields: MODEL_FIELDS,
    'messages.0.content': {
      verdict: 'theirs',
      reason:
        'the text block’s cache_control carries `scope` (not in the SDK’s CacheControlEphemeral: type, ttl), so our Anthropic decoder keeps it as residue and reports it; theirs writes the breakpoint as Bedrock’s cachePoint',
      loss: 'unsupported-field',
    },
  },
};
