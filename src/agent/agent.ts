/**
 * `new Agent({ model, client, systemPrompt, tools, hooks, state, maxSteps })`: a model loop. Each
 * step sends the conversation to the model (through `client`, the gateway's routes in the host);
 * the tool calls it answers with run in parallel, a throwing tool becoming an error result the model
 * reads; the loop ends when the model answers without calling a tool, or after `maxSteps` model
 * calls. `invoke` gives the outcome, `stream` the run as one canonical stream (each step's blocks,
 * the tool results as `part` events, one finish with the run's stop reason and summed usage).
 * One Agent holds one conversation and runs one invocation at a time.
 */
import { UsageError } from '../model/errors.js';
import type { Loss } from '../model/loss.js';
import type { Message } from '../model/message.js';
import type { Part, ToolCallPart, ToolResultPart } from '../model/part.js';
import type { Request } from '../model/request.js';
import type { Response } from '../model/response.js';
import type { StopReason } from '../model/stop-reason.js';
import type { StreamEvent } from '../model/stream-event.js';
import type { Usage } from '../model/usage.js';
import { Accumulator } from '../stream/accumulate.js';
import { encodeMessages } from '../memory/messages.js';
import { initializedResult, isCanonicalHooks, lossesOf, type AgentHooks, type AgentState } from './hooks.js';
import { ModelCallError, type ModelCallOptions, type ModelClient } from './model-client.js';
import { outputParts, type AgentTool } from './tool.js';

export const DEFAULT_MAX_STEPS = 10;

export interface AgentOptions {
  /** The model name; through the gateway it picks the route (provider and keys). */
  model: string;
  client: ModelClient;
  systemPrompt?: string;
  tools?: readonly AgentTool[];
  hooks?: AgentHooks | readonly AgentHooks[];
  /** `{ actor_id, session_id }`: the session the hooks are told about. */
  state?: AgentState;
  /** Model calls per invocation, at most; default 10. */
  maxSteps?: number;
  /** The dialect of the messages hooks are given; default openai-chat. */
  hookFormat?: string;
  /** Other request settings (temperature, maxTokens ...) sent with every call. */
  settings?: Omit<Request, 'model' | 'messages' | 'tools' | 'stream'>;
}

export type AgentInput = string | Message | readonly Message[];

export interface AgentResult {
  /** The text of the last assistant message. */
  text: string;
  /** The messages this invocation added (the input, each answer, each tool result). */
  messages: Message[];
  stopReason: StopReason;
  /** Summed over the invocation's model calls. */
  usage: Usage;
}

export interface InvokeOptions {
  signal?: AbortSignal;
}

const MAX_STEPS_REASON: StopReason = { unified: 'other', raw: 'max_steps' };

function inputMessages(input: AgentInput): Message[] {
  if (typeof input === 'string') return [{ role: 'user', parts: [{ type: 'text', text: input }], stringContent: true }];
  if (Array.isArray(input)) return [...(input as readonly Message[])];
  if (typeof input === 'object' && input !== null && 'role' in input) return [input as Message];
  throw new UsageError('Agent: the input is a prompt string, a canonical message or a list of them');
}

export function messageText(message: Message | undefined): string {
  if (message === undefined) return '';
  return message.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
}

function addUsage(total: Usage, u: Partial<Usage> | undefined): void {
  if (u === undefined) return;
  total.inputTokens += u.inputTokens ?? 0;
  total.outputTokens += u.outputTokens ?? 0;
  for (const k of ['totalTokens', 'cacheReadTokens', 'cacheWriteTokens', 'reasoningTokens'] as const) {
    if (u[k] !== undefined) total[k] = (total[k] ?? 0) + u[k];
  }
}

/** A block event's part index moved by `offset` (blocks of later steps follow the earlier ones). */
function shifted(e: StreamEvent, offset: number): StreamEvent {
  return 'index' in e ? { ...e, index: e.index + offset } : e;
}

export class Agent {
  readonly model: string;
  /** The conversation (the system prompt is not in it). */
  readonly messages: Message[] = [];
  /** What the hooks could not keep or load as given. */
  readonly losses: Loss[] = [];
  systemPrompt: string | undefined;
  private readonly client: ModelClient;
  private readonly tools: ReadonlyMap<string, AgentTool>;
  private readonly hooks: readonly AgentHooks[];
  private readonly state: AgentState | undefined;
  private readonly maxSteps: number;
  private readonly hookFormat: string;
  private readonly settings: AgentOptions['settings'];
  private initialized = false;
  private busy = false;

  constructor(options: AgentOptions) {
    if (typeof options !== 'object' || options === null) throw new UsageError('Agent takes { model, client, systemPrompt?, tools?, hooks?, state?, maxSteps? }');
    if (typeof options.model !== 'string' || options.model === '') throw new UsageError('Agent: model must be a model name');
    if (typeof options.client?.complete !== 'function') throw new UsageError('Agent: client must be a ModelClient (e.g. gatewayModelClient(gateway.fetch))');
    const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
    if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new UsageError(`Agent: maxSteps must be a whole number, at least 1 (got ${String(maxSteps)})`);
    this.model = options.model;
    this.client = options.client;
    this.systemPrompt = options.systemPrompt;
    const tools = new Map<string, AgentTool>();
    for (const t of options.tools ?? []) {
      if (tools.has(t.name)) throw new UsageError(`Agent: two tools are named ${t.name}`);
      tools.set(t.name, t);
    }
    this.tools = tools;
    this.hooks = options.hooks === undefined ? [] : Array.isArray(options.hooks) ? (options.hooks as AgentHooks[]) : [options.hooks as AgentHooks];
    if (this.hooks.length > 0 && (typeof options.state?.actor_id !== 'string' || typeof options.state.session_id !== 'string')) {
      throw new UsageError('Agent: hooks are told the session, so state { actor_id, session_id } is required with hooks');
    }
    this.state = options.state;
    this.maxSteps = maxSteps;
    this.hookFormat = options.hookFormat ?? 'openai-chat';
    this.settings = options.settings;
  }

  async invoke(input: AgentInput, options: InvokeOptions = {}): Promise<AgentResult> {
    const run = this.run(input, false, options);
    for (;;) {
      const next = await run.next();
      if (next.done === true) return next.value;
    }
  }

  /** The invocation as canonical stream events; the generator's return value is the AgentResult. */
  stream(input: AgentInput, options: InvokeOptions = {}): AsyncGenerator<StreamEvent, AgentResult> {
    return this.run(input, true, options);
  }

  private session(): { actorId: string; sessionId: string } {
    const state = this.state as AgentState;
    return { actorId: state.actor_id, sessionId: state.session_id };
  }

  /** Runs the initialized hooks once: their prompt text joins the system prompt. */
  private async init(): Promise<void> {
    if (this.initialized) return;
    this.initialized = true;
    const prompts: string[] = [];
    for (const h of this.hooks) {
      const canonical = isCanonicalHooks(h);
      if (!canonical && h.onAgentInitialized === undefined) continue;
      const r = initializedResult(canonical ? await h.recent(this.session(), { verbatim: false }) : await h.onAgentInitialized!({ ...this.session(), format: this.hookFormat }));
      this.losses.push(...r.losses);
      if (r.prompt !== '') prompts.push(r.prompt);
    }
    if (prompts.length > 0) this.systemPrompt = [this.systemPrompt ?? '', ...prompts].filter((s) => s !== '').join('\n\n');
  }

  /** The message in the hooks' dialect: a tool result with the message that called it, so it reads as an answer. */
  private wireOf(message: Message): unknown {
    const prev = this.messages[this.messages.length - 2];
    if (message.role === 'tool' && prev !== undefined) {
      const before = encodeMessages([prev], this.hookFormat, 'onMessageAdded').messages.length;
      const both = encodeMessages([prev, message], this.hookFormat, 'onMessageAdded').messages;
      return both[before] ?? both[both.length - 1];
    }
    return encodeMessages([message], this.hookFormat, 'onMessageAdded').messages[0];
  }

  private async add(message: Message): Promise<void> {
    this.messages.push(message);
    // The message in the hook dialect, made once and only when a hook takes it so.
    let wire: unknown;
    let encoded = false;
    for (const h of this.hooks) {
      let r: unknown;
      if (isCanonicalHooks(h)) r = await h.store(this.session(), [message]);
      else if (h.onMessageAdded !== undefined) {
        if (!encoded) {
          wire = this.wireOf(message);
          encoded = true;
        }
        r = await h.onMessageAdded({ ...this.session(), format: this.hookFormat, message: wire, canonical: message });
      } else continue;
      this.losses.push(...lossesOf(r));
    }
  }

  private request(): Request {
    const messages: Message[] = this.systemPrompt === undefined || this.systemPrompt === '' ? [...this.messages] : [{ role: 'system', parts: [{ type: 'text', text: this.systemPrompt }], stringContent: true }, ...this.messages];
    const req: Request = { ...this.settings, model: this.model, messages };
    if (this.tools.size > 0) {
      req.tools = [...this.tools.values()].map((t) => ({ type: 'function' as const, name: t.name, parameters: t.parameters, ...(t.description === undefined ? {} : { description: t.description }) }));
    }
    return req;
  }

  private async runTool(call: ToolCallPart, signal: AbortSignal | undefined): Promise<ToolResultPart> {
    const base = { type: 'tool-result' as const, callId: call.id, name: call.name };
    const t = this.tools.get(call.name);
    if (t === undefined) return { ...base, isError: true, content: [{ type: 'text', text: `Error: there is no tool named ${call.name} (tools: ${[...this.tools.keys()].join(', ') || 'none'})` }] };
    try {
      const out = await t.call(call.arguments, signal === undefined ? { callId: call.id } : { callId: call.id, signal });
      return { ...base, content: outputParts(out) };
    } catch (err) {
      return { ...base, isError: true, content: [{ type: 'text', text: `Error: ${err instanceof Error ? err.message : String(err)}` }] };
    }
  }

  /** One model call, its events (shifted after the earlier steps' blocks) yielded when streaming. */
  private async *step(streaming: boolean, offset: number, call: ModelCallOptions): AsyncGenerator<StreamEvent, Response> {
    if (!streaming) return this.client.complete(this.request(), call);
    const acc = new Accumulator();
    for await (const e of this.client.stream(this.request(), call)) {
      acc.push(e);
      if (e.type === 'error') {
        yield e;
        break;
      }
      if (e.type === 'response-start' || e.type === 'response-end' || e.type === 'finish' || e.type === 'usage' || e.type === 'provider-event') continue;
      if ('choice' in e && e.choice !== undefined && e.choice !== 0) continue;
      yield shifted(e, offset);
    }
    const r = acc.result();
    if (r.error !== undefined) {
      throw new ModelCallError(r.error);
    }
    return r.response;
  }

  private async *run(input: AgentInput, streaming: boolean, options: InvokeOptions): AsyncGenerator<StreamEvent, AgentResult> {
    if (this.busy) throw new UsageError('Agent: an invocation is already running on this agent');
    this.busy = true;
    try {
      const added = inputMessages(input);
      await this.init();
      const first = this.messages.length;
      for (const m of added) await this.add(m);
      const usage: Usage = { inputTokens: 0, outputTokens: 0 };
      const call: ModelCallOptions = options.signal === undefined ? {} : { signal: options.signal };
      let offset = 0;
      let stopReason: StopReason = MAX_STEPS_REASON;
      let last: Message | undefined;
      if (streaming) yield { type: 'response-start' };
      for (let step = 1; step <= this.maxSteps; step++) {
        const res = yield* this.step(streaming, offset, call);
        const choice = res.choices[0];
        addUsage(usage, res.usage);
        const message: Message = choice === undefined ? { role: 'assistant', parts: [] } : { ...choice.message, role: 'assistant' };
        offset += message.parts.length;
        last = message;
        await this.add(message);
        const calls = message.parts.filter((p): p is ToolCallPart => p.type === 'tool-call' && p.providerExecuted !== true);
        if (calls.length === 0) {
          stopReason = choice?.stopReason ?? { unified: 'stop' };
          break;
        }
        const results = await Promise.all(calls.map((c) => this.runTool(c, options.signal)));
        for (const r of results) {
          if (streaming) yield { type: 'part', index: offset++, part: r as Part };
          await this.add({ role: 'tool', parts: [r] });
        }
      }
      if (streaming) {
        yield { type: 'usage', usage };
        yield { type: 'finish', stopReason };
        yield { type: 'response-end' };
      }
      return { text: messageText(last), messages: this.messages.slice(first), stopReason, usage };
    } finally {
      this.busy = false;
    }
  }
}
