// An agent written with Strands Agents (@strands-agents/sdk). Its model is Strands' OpenAI model
// pointed at the gateway through the fetch function the host gives (no socket: the call goes
// through the gateway's routes in process). Its memory is the same as every other agent's: the
// host's Strands plugin, bound to the injected session, loads the last turns into the system
// prompt on start and stores each message as Strands adds it.
import { Agent } from '@strands-agents/sdk';
import { OpenAIModel } from '@strands-agents/sdk/models/openai';

export const card = { name: 'strands', description: 'A Strands agent with interlingua memory.' };

export async function invoke(payload, context, { strandsMemory }) {
  const model = new OpenAIModel({
    api: 'chat',
    modelId: context.model,
    apiKey: 'in-process',
    clientConfig: { baseURL: `${context.baseUrl}/v1`, fetch: context.fetch },
  });
  const memory = await strandsMemory({ inject: 'system-prompt' });
  const agent = new Agent({ model, systemPrompt: 'You are a helpful assistant.', plugins: [memory], printer: false });
  const result = await agent.invoke(payload.prompt ?? payload.question);
  return { output: String(result).trim() };
}
