/** The example agents through POST /chat: the orchestrator hands off to a specialist; the Strands agent gets the same memory. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, tempDb, type TestHost } from './host-helpers.js';

let h: TestHost;
beforeAll(async () => {
  h = await startHost({ store: `sqlite:${tempDb()}` });
});
afterAll(async () => {
  await h.close();
});

describe('examples/agents', () => {
  it('orchestrator: hands the weather question to the travel specialist, whose tool answers', async () => {
    const r = await h.chat({ agent_id: 'orchestrator', user_id: 'ivy', prompt: 'What is the weather in London?' });
    expect(r.json['output']).toBe('The tool says: The tool says: light rain, 14°C');
    // The specialist's model call held only its task, not the orchestrator's conversation.
    const specialist = h.bodies.find((b) => String(b.messages[0]?.content).startsWith('You are a travel specialist'));
    expect(specialist?.messages.map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('strands: a Strands agent on the gateway with the host memory (system prompt) across turns', async () => {
    const base = { agent_id: 'strands', user_id: 'jack', session_id: 'strands-1' };
    expect((await h.chat({ ...base, prompt: 'My name is Jack and I love curry' })).json['output']).toBe('Noted: My name is Jack and I love curry');
    expect((await h.chat({ ...base, prompt: "What's my name?" })).json['output']).toBe('Your name is Jack.');
    const system = h.bodies.at(-1)?.messages[0];
    expect(JSON.stringify(system)).toContain('Recent conversation:\\nuser: My name is Jack and I love curry\\nassistant: Noted: My name is Jack and I love curry');
    expect((await h.chat({ ...base, prompt: 'What food do I like?' })).json['output']).toBe('You like curry.');
  });
});
