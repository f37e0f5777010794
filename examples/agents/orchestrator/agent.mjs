// An orchestrator that hands off to specialists. Each specialist is an Agent of its own with its
// own instructions and tools; the orchestrator reaches them through one `handoff` tool, so the
// model decides who answers. Only the orchestrator's conversation is the session's memory: a
// specialist gets the task it is handed and nothing else, and its answer comes back as a tool result.
export const card = { name: 'orchestrator', description: 'Routes each request to a travel or cooking specialist.' };

const SPECIALISTS = {
  travel: {
    systemPrompt: 'You are a travel specialist. Answer with concrete, practical travel advice.',
    tools: (tool, z) => [
      tool({
        name: 'get_weather',
        description: 'The current weather in a city.',
        inputSchema: z.object({ city: z.string() }),
        run: ({ city }) => ({ paris: 'sunny, 21°C', london: 'light rain, 14°C' })[city.toLowerCase()] ?? `no forecast for ${city}`,
      }),
    ],
  },
  cooking: {
    systemPrompt: 'You are a cooking specialist. Answer with a short recipe or technique.',
    tools: () => [],
  },
};

export async function invoke(payload, context, { hooks, state }) {
  const { tool, z } = context;
  const handoff = tool({
    name: 'handoff',
    description: `Hand the task to a specialist and get their answer. Specialists: ${Object.keys(SPECIALISTS).join(', ')}.`,
    inputSchema: z.object({ specialist: z.enum(Object.keys(SPECIALISTS)), task: z.string() }),
    run: async ({ specialist, task }) => {
      const spec = SPECIALISTS[specialist];
      // No hooks and no state: the specialist keeps no memory of its own.
      const expert = context.createAgent({ systemPrompt: spec.systemPrompt, tools: spec.tools(tool, z) });
      return (await expert.invoke(task)).text;
    },
  });
  const agent = context.createAgent({
    systemPrompt: 'You coordinate specialists. For travel or weather questions hand off to "travel", for food to "cooking"; otherwise answer yourself.',
    tools: [handoff],
    hooks,
    state,
  });
  const result = await agent.invoke(payload.prompt ?? payload.question);
  return { output: result.text };
}
