// A single agent with one tool. The host injects the memory hooks and the session state; handing
// them to the Agent is all it takes for the session's last turns to reach the system prompt and for
// every message (question, tool call, tool result, answer) to be stored.
export const card = { name: 'assistant', description: 'A helpful assistant that can look up the weather.' };

const FORECASTS = { paris: 'sunny, 21°C', london: 'light rain, 14°C', tokyo: 'cloudy, 18°C' };

export async function invoke(payload, context, { hooks, state }) {
  const agent = makeAgent(context, hooks, state);
  const result = await agent.invoke(payload.prompt ?? payload.question);
  return { output: result.text };
}

// Streaming (A2A message/stream, AG-UI): the same agent, its run as canonical stream events.
export function stream(payload, context, { hooks, state }) {
  return makeAgent(context, hooks, state).stream(payload.prompt ?? payload.question);
}

function makeAgent(context, hooks, state) {
  const { tool, z } = context;
  const getWeather = tool({
    name: 'get_weather',
    description: 'The current weather in a city.',
    inputSchema: z.object({ city: z.string().describe('City name') }),
    run: ({ city }) => FORECASTS[city.toLowerCase()] ?? `no forecast for ${city}`,
  });
  return context.createAgent({ systemPrompt: 'You are a helpful assistant.', tools: [getWeather], hooks, state });
}
