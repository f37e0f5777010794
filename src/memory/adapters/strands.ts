/**
 * `interlingua/memory/strands`: conversation memory for Strands Agents (`@strands-agents/sdk` v1,
 * an optional peer dependency: only this module loads it).
 *
 * The TypeScript SDK has no HookProvider: hooks are registered by a Plugin's `initAgent(agent)`
 * through `agent.addHook(EventClass, callback)`. This plugin registers the two of the source design:
 * - `InitializedEvent` (once, before the agent's first invocation): the session's last k turns go
 *   into the agent — as messages before its own (default: everything, tool use and reasoning
 *   included), or as `Recent conversation:` text appended to its system prompt (the Strands sample's
 *   way), or both (`inject`);
 * - `MessageAddedEvent` (each user, assistant and tool-result message the agent adds): that message
 *   is stored whole, one event. When Strands replaces the message it just added (a continuation
 *   merged into it: same trackingId), the stored event is replaced too.
 * Storage errors are thrown, so the invocation fails rather than forgets silently; what could not
 * be kept as given is in `plugin.losses` (and passed to `onLoss`). Messages the agent is built with
 * or that are pushed onto `agent.messages` by hand fire no event and are not stored.
 */
import { InitializedEvent, Message, MessageAddedEvent, TextBlock } from '@strands-agents/sdk';
import type { LocalAgent, Plugin } from '@strands-agents/sdk';
import type { FormatId } from '../../model/format-id.js';
import type { Loss } from '../../model/loss.js';
import { UsageError } from '../../model/errors.js';
import { createMemoryHooks, resolveSession, type MemoryHooks, type SessionIds, type SessionRef } from '../hooks.js';
import type { Memory } from '../messages.js';
import { fromStrands, toStrands, type StrandsMessageJson } from './strands-messages.js';

export { fromStrands, toStrands, type StrandsMessageJson, type StrandsMappingOptions } from './strands-messages.js';

export interface StrandsMemoryOptions {
  /** Turns loaded when the agent starts; default 10. */
  k?: number;
  /** Where the loaded turns go: the agent's messages (default), its system prompt, or both. */
  inject?: 'messages' | 'system-prompt' | 'both';
  /** The provider family whose reasoning signatures the agent's model makes; default bedrock-converse. */
  reasoningOrigin?: FormatId;
  /** Called with each loss as it happens. */
  onLoss?: (loss: Loss) => void;
}

export class StrandsMemoryPlugin implements Plugin {
  readonly name = 'interlingua:memory';
  /** Everything that could not be stored or loaded as given, in order. */
  readonly losses: Loss[] = [];
  readonly session: SessionIds;
  private readonly hooks: MemoryHooks;
  private readonly inject: 'messages' | 'system-prompt' | 'both';
  private readonly origin: FormatId;
  /** The last message stored and its event, to replace it when Strands replaces the message. */
  private last: { trackingId: string; eventId: string } | undefined;

  constructor(
    private readonly mem: Memory,
    session: SessionRef,
    private readonly options: StrandsMemoryOptions = {},
  ) {
    this.session = resolveSession(session, 'StrandsMemoryPlugin');
    this.hooks = createMemoryHooks(mem, options.k === undefined ? {} : { k: options.k });
    this.inject = options.inject ?? 'messages';
    if (!['messages', 'system-prompt', 'both'].includes(this.inject)) throw new UsageError(`StrandsMemoryPlugin: inject must be messages, system-prompt or both (got ${String(this.inject)})`);
    this.origin = options.reasoningOrigin ?? 'bedrock-converse';
  }

  initAgent(agent: LocalAgent): void {
    agent.addHook(InitializedEvent, (event) => this.load(event.agent));
    agent.addHook(MessageAddedEvent, (event) => this.save(event.message));
  }

  private report(losses: readonly Loss[]): void {
    for (const loss of losses) {
      this.losses.push(loss);
      this.options.onLoss?.(loss);
    }
  }

  /** Puts the session's last turns into the agent. */
  async load(agent: LocalAgent): Promise<void> {
    const recent = await this.hooks.recent(this.session);
    this.report(recent.losses);
    if (recent.messages.length === 0) return;
    if (this.inject !== 'system-prompt') {
      const shaped = toStrands(recent.messages, { origin: this.origin });
      this.report(shaped.losses);
      agent.messages.unshift(...shaped.messages.map((m) => Message.fromJSON(m as unknown as Parameters<typeof Message.fromJSON>[0])));
    }
    if (this.inject !== 'messages') {
      const text = recent.prompt;
      const current = agent.systemPrompt;
      if (current === undefined || current === '') agent.systemPrompt = text;
      else if (typeof current === 'string') agent.systemPrompt = `${current}\n\n${text}`;
      else agent.systemPrompt = [...current, new TextBlock(`\n\n${text}`)];
    }
  }

  /** Stores one message the agent added. */
  async save(message: Message): Promise<void> {
    const json = JSON.parse(JSON.stringify(message)) as StrandsMessageJson;
    const losses: Loss[] = [];
    const canonical = fromStrands(json, { origin: this.origin, losses });
    if (this.last !== undefined && json.trackingId === this.last.trackingId) {
      await this.mem.deleteEvent(this.session.actorId, this.session.sessionId, this.last.eventId);
    }
    const stored = await this.hooks.store(this.session, [canonical]);
    this.report([...losses, ...stored.losses]);
    const event = stored.events[0];
    this.last = event !== undefined && json.trackingId !== undefined ? { trackingId: json.trackingId, eventId: event.eventId } : undefined;
  }
}

/** A Strands plugin that gives an agent the memory of a session: `new Agent({ plugins: [strandsMemory(mem, { userId, agentId })] })`. */
export function strandsMemory(mem: Memory, session: SessionRef, options: StrandsMemoryOptions = {}): StrandsMemoryPlugin {
  return new StrandsMemoryPlugin(mem, session, options);
}
