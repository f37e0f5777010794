/**
 * Deterministic agent conversations for the benches (seeded mulberry32, no Math.random): N
 * messages in Anthropic Messages form, alternating user / assistant, of an agent that reads,
 * searches and runs commands. Assistant messages hold a thinking block with its signature, text
 * and 1-3 tool_use blocks with JSON object arguments; the next user message holds their
 * tool_results and a text. With `images: 'small'`, some user messages and screenshot results carry
 * a PNG or JPEG of 0.6-3 KB (base64 <= 4 KB); `images: 'large'` carries `imageBytes` per image.
 * Also a response body: one assistant message with reasoning, text and tool calls.
 */

type Obj = Record<string, unknown>;

export type Images = 'none' | 'small' | 'large';

export interface GenerateOptions {
  /** Messages in the Anthropic body (user and assistant alternating, user first). */
  messages: number;
  images?: Images;
  /** Bytes per image (before base64) when images is 'large'; default 256 KB. */
  imageBytes?: number;
  seed?: number;
}

/** mulberry32: small, fast, deterministic. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const WORDS = (
  'the agent reads file config yaml returns error value retry request token stream model tool call result parse ' +
  'schema field user system cache build test deploy server client latency index query search match line function ' +
  'module import export type interface class method argument default option flag path directory commit branch'
).split(' ');

// 12 bytes each (a multiple of 3), so the random base64 after them continues a valid base64 text.
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
const JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);

export const SYSTEM = 'You are a coding agent working in a TypeScript repository. Use the tools to read, search and run commands. Be concise.';

export const TOOLS = [
  { name: 'read_file', description: 'Read a file from the workspace', props: { path: 'string', max_lines: 'integer' } },
  { name: 'search_code', description: 'Search the repository for a pattern', props: { pattern: 'string', glob: 'string', case_sensitive: 'boolean' } },
  { name: 'run_command', description: 'Run a shell command and return its output', props: { command: 'string', timeout_s: 'integer' } },
  { name: 'screenshot', description: 'Take a screenshot of the running app', props: { url: 'string', full_page: 'boolean' } },
] as const;

interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly props: Readonly<Record<string, string>>;
}

/** The Anthropic request around a conversation: the agent's system prompt, thinking, `tools` as JSON Schema. */
export function anthropicRequestBody(messages: Obj[], tools: readonly ToolSpec[]): Obj {
  return {
    model: 'claude-sonnet-4-5-20250929',
    max_tokens: 16000,
    system: [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }],
    thinking: { type: 'enabled', budget_tokens: 8000 },
    tools: tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: {
        type: 'object',
        properties: Object.fromEntries(Object.entries(tool.props).map(([k, t]) => [k, { type: t }])),
        required: [Object.keys(tool.props)[0]],
      },
    })),
    messages,
  };
}

class Gen {
  readonly rand: () => number;
  constructor(seed: number) {
    this.rand = prng(seed);
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.rand() * (hi - lo + 1));
  }
  words(n: number): string {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(WORDS[this.int(0, WORDS.length - 1)] as string);
    const s = out.join(' ');
    return `${s.charAt(0).toUpperCase()}${s.slice(1)}.`;
  }
  /** `n` random bytes as base64 (n rounded up to a multiple of 3: no padding). */
  bytes(n: number, head?: Buffer): string {
    const len = Math.ceil(n / 3) * 3;
    const buf = Buffer.alloc(len);
    let at = 0;
    if (head) at = head.copy(buf);
    // Four bytes per draw: generating a 50 MB request stays well under a second.
    for (; at < len; at += 4) {
      const v = Math.floor(this.rand() * 4294967296);
      buf[at] = v & 0xff;
      if (at + 1 < len) buf[at + 1] = (v >>> 8) & 0xff;
      if (at + 2 < len) buf[at + 2] = (v >>> 16) & 0xff;
      if (at + 3 < len) buf[at + 3] = v >>> 24;
    }
    return buf.toString('base64');
  }
}

/** Image bytes come from their own generator: the conversation is the same with and without images, whatever their size. */
function imageBlock(g: Gen, images: Images, imageBytes: number): Obj {
  const png = g.rand() < 0.5;
  const n = images === 'large' ? imageBytes : g.int(600, 3000);
  return { type: 'image', source: { type: 'base64', media_type: png ? 'image/png' : 'image/jpeg', data: g.bytes(n, png ? PNG_HEAD : JPEG_HEAD) } };
}

function toolInput(g: Gen, props: Record<string, string>): Obj {
  const input: Obj = {};
  for (const [k, t] of Object.entries(props)) input[k] = t === 'integer' ? g.int(1, 500) : t === 'boolean' ? g.rand() < 0.5 : g.words(g.int(1, 4));
  if (g.rand() < 0.3) input['options'] = { recursive: g.rand() < 0.5, depth: g.int(1, 5), tags: [g.words(1), g.words(1)] };
  return input;
}

/** The Anthropic Messages request of `messages` messages. */
export function anthropicRequest(options: GenerateOptions): Obj {
  const { messages: count, images = 'none', imageBytes = 256 * 1024, seed = 20250101 } = options;
  const g = new Gen(seed + count);
  const ig = new Gen(seed * 7 + count);
  const messages: Obj[] = [];
  let pending: { id: string; name: string }[] = [];
  let callNo = 0;
  for (let i = 0; i < count; i++) {
    if (i % 2 === 0) {
      const content: Obj[] = pending.map((c) => {
        const text = g.words(g.int(40, 400));
        const shot = c.name === 'screenshot' && g.rand() < 0.7 && images !== 'none';
        return { type: 'tool_result', tool_use_id: c.id, content: shot ? [{ type: 'text', text }, imageBlock(ig, images, imageBytes)] : text };
      });
      content.push({ type: 'text', text: g.words(g.int(8, 60)) });
      if (images !== 'none' && i % 6 === 0) content.push(imageBlock(ig, images, imageBytes));
      messages.push({ role: 'user', content });
      pending = [];
    } else {
      const last = i === count - 1;
      const calls = last ? [] : Array.from({ length: g.int(1, 3) }, () => TOOLS[g.int(0, TOOLS.length - 1)] as (typeof TOOLS)[number]);
      const uses = calls.map((t) => ({ type: 'tool_use', id: `toolu_01${(callNo++).toString(36).padStart(22, 'x')}`, name: t.name, input: toolInput(g, t.props) }));
      messages.push({
        role: 'assistant',
        content: [{ type: 'thinking', thinking: g.words(g.int(30, 200)), signature: g.bytes(g.int(200, 700)) }, { type: 'text', text: g.words(g.int(10, 120)) }, ...uses],
      });
      pending = uses.map((u) => ({ id: u.id, name: u.name }));
    }
  }
  return anthropicRequestBody(messages, TOOLS);
}

/** An Anthropic Messages response: one assistant message with thinking, text and `calls` tool calls. */
export function anthropicResponse(calls = 3, seed = 7): Obj {
  const g = new Gen(seed);
  const content: Obj[] = [
    { type: 'thinking', thinking: g.words(300), signature: g.bytes(600) },
    { type: 'text', text: g.words(250) },
  ];
  for (let c = 0; c < calls; c++) {
    const t = TOOLS[c % TOOLS.length] as (typeof TOOLS)[number];
    content.push({ type: 'tool_use', id: `toolu_01${c.toString(36).padStart(22, 'y')}`, name: t.name, input: toolInput(g, t.props) });
  }
  return {
    id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5-20250929',
    content,
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 25000, output_tokens: 1800, cache_read_input_tokens: 20000, cache_creation_input_tokens: 0 },
  };
}
