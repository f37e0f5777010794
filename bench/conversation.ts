/**
 * A realistic long agent conversation, built deterministically (seeded PRNG), in both wire
 * formats: 200 messages (100 user, 100 assistant) of an agent that reads files and searches,
 * with parallel tool calls and their results, thinking blocks with signatures (Anthropic), and
 * base64 screenshots of 20-60 KB on some turns (in user messages and in tool results).
 */

import { anthropicRequestBody, prng, SYSTEM, WORDS } from './convert/generate.js';

type Obj = Record<string, unknown>;

interface Gen {
  rand: () => number;
  int: (lo: number, hi: number) => number;
  words: (n: number) => string;
  bytes: (n: number) => string;
}

function gen(seed: number): Gen {
  const rand = prng(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));
  const words = (n: number): string => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(WORDS[int(0, WORDS.length - 1)] as string);
    const s = out.join(' ');
    return `${s.charAt(0).toUpperCase()}${s.slice(1)}.`;
  };
  const bytes = (n: number): string => {
    const buf = Buffer.alloc(n);
    for (let i = 0; i < n; i++) buf[i] = int(0, 255);
    return buf.toString('base64');
  };
  return { rand, int, words, bytes };
}

// The PNG signature and the IHDR chunk length: 12 bytes, so the base64 has no padding and the
// random base64 after it continues a valid base64 text.
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]).toString('base64');

interface Call {
  id: string;
  name: string;
  input: Obj;
  output: string;
  screenshot?: string;
}
interface Turn {
  userText: string;
  userImage?: string;
  thinking: string;
  signature: string;
  assistantText: string;
  calls: Call[];
}

const TOOLS = [
  { name: 'read_file', description: 'Read a file from the workspace', props: { path: 'string', max_lines: 'integer' } },
  { name: 'search_code', description: 'Search the repository for a pattern', props: { pattern: 'string', glob: 'string' } },
  { name: 'run_command', description: 'Run a shell command and return its output', props: { command: 'string', timeout_s: 'integer' } },
  { name: 'screenshot', description: 'Take a screenshot of the running app', props: { url: 'string' } },
];

function turns(seed: number, count: number, images: boolean): Turn[] {
  const g = gen(seed);
  const image = (): string => PNG_MAGIC + g.bytes(g.int(15_000, 45_000)); // 20-60 KB of base64
  const out: Turn[] = [];
  let callNo = 0;
  for (let i = 0; i < count; i++) {
    const calls: Call[] = [];
    const n = i === count - 1 ? 0 : g.int(1, 3);
    for (let c = 0; c < n; c++) {
      const tool = TOOLS[g.int(0, TOOLS.length - 1)] as (typeof TOOLS)[number];
      const input: Obj = {};
      for (const [k, t] of Object.entries(tool.props)) input[k] = t === 'integer' ? g.int(1, 500) : g.words(g.int(1, 4));
      const call: Call = { id: `toolu_01${(callNo++).toString(36).padStart(22, 'x')}`, name: tool.name, input, output: g.words(g.int(40, 400)) };
      if (tool.name === 'screenshot' && g.rand() < 0.6 && images) call.screenshot = image();
      calls.push(call);
    }
    const t: Turn = {
      userText: g.words(g.int(8, 60)),
      thinking: g.words(g.int(30, 200)),
      signature: g.bytes(g.int(200, 700)),
      assistantText: g.words(g.int(10, 120)),
      calls,
    };
    if (i % 12 === 3 && images) t.userImage = image();
    out.push(t);
  }
  return out;
}

const COUNT = 100;
const SEED = 20250101;

/**
 * Options: `images: false` builds the same conversation without screenshots, where the body is
 * all structure and short strings: the hard case for a converter measured against JSON's floor.
 */
export interface ConversationOptions {
  images?: boolean;
}

/** The Anthropic Messages request: 100 user + 100 assistant messages. */
export function anthropicConversation({ images = true }: ConversationOptions = {}): Obj {
  const messages: Obj[] = [];
  let pending: Call[] = [];
  for (const t of turns(SEED, COUNT, images)) {
    const user: Obj[] = pending.map((c) => ({
      type: 'tool_result',
      tool_use_id: c.id,
      content: c.screenshot
        ? [{ type: 'text', text: c.output }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: c.screenshot } }]
        : c.output,
    }));
    user.push({ type: 'text', text: t.userText });
    if (t.userImage) user.push({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: t.userImage } });
    messages.push({ role: 'user', content: user });
    messages.push({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: t.thinking, signature: t.signature },
        { type: 'text', text: t.assistantText },
        ...t.calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.input })),
      ],
    });
    pending = t.calls;
  }
  return anthropicRequestBody(messages, TOOLS);
}

/**
 * The same conversation as an OpenAI Chat request: tool results as tool messages (screenshots in
 * a user message after them, since tool messages hold text only), no thinking (Chat has no slot).
 */
export function openaiConversation({ images = true }: ConversationOptions = {}): Obj {
  const messages: Obj[] = [{ role: 'system', content: SYSTEM }];
  let pending: Call[] = [];
  for (const t of turns(SEED, COUNT, images)) {
    for (const c of pending) messages.push({ role: 'tool', tool_call_id: c.id, content: c.output });
    const user: Obj[] = pending
      .filter((c) => c.screenshot)
      .map((c) => ({ type: 'image_url', image_url: { url: `data:image/png;base64,${c.screenshot}` } }));
    user.push({ type: 'text', text: t.userText });
    if (t.userImage) user.push({ type: 'image_url', image_url: { url: `data:image/png;base64,${t.userImage}` } });
    messages.push({ role: 'user', content: user });
    const assistant: Obj = { role: 'assistant', content: t.assistantText };
    if (t.calls.length > 0) {
      assistant['tool_calls'] = t.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.input) } }));
    }
    messages.push(assistant);
    pending = t.calls;
  }
  return {
    model: 'gpt-5',
    max_completion_tokens: 16000,
    reasoning_effort: 'medium',
    tools: TOOLS.map((tool) => ({
      type: 'function',
      function: {
        name: tool.name,
        description: tool.description,
        parameters: {
          type: 'object',
          properties: Object.fromEntries(Object.entries(tool.props).map(([k, t]) => [k, { type: t }])),
          required: [Object.keys(tool.props)[0]],
        },
      },
    })),
    messages,
  };
}
