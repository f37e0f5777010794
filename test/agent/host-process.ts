/**
 * One agent host in its own process (for the cross-process lock test): a gateway with the agent
 * host on `store`, the recall model answering after a short delay, `count` parallel /chat calls on
 * one session. Prints one JSON line with the outputs.
 */
import { recallUpstream } from './scripted-model.js';
import { startHost } from './host-helpers.js';

const [store, session, countText, tag] = process.argv.slice(2) as [string, string, string, string];
const recall = recallUpstream();
const slow = { ...recall, handler: async (req: Request) => { await new Promise((r) => setTimeout(r, 15)); return recall.handler(req); } };
const h = await startHost({ store, upstream: slow });
const outs = await Promise.all(
  Array.from({ length: Number(countText) }, (_, i) => h.chat({ agent_id: 'assistant', user_id: 'lock-user', session_id: session, prompt: `${tag} message ${i}` })),
);
await h.close();
process.stdout.write(`${JSON.stringify(outs.map((o) => o.status))}\n`);
