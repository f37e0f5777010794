/**
 * A separate process that writes to a store (sqlite.test.ts, postgres.test.ts).
 * - `writers <url> <first> <count> <each>`: writers first..first+count-1 append `each` events each
 *   to session `busy`, concurrently, tagged with writer and index;
 * - `loop <url>`: appends to session `killed` until killed, printing each acknowledged eventId.
 */
import { openMemory } from '../../src/memory/index.js';

const [mode, url, ...rest] = process.argv.slice(2);
const store = await openMemory(url!);

if (mode === 'writers') {
  const [first, count, each] = rest.map(Number) as [number, number, number];
  await Promise.all(
    Array.from({ length: count }, async (_, k) => {
      const w = first + k;
      for (let i = 0; i < each; i++) {
        await store.appendEvents('alice', 'busy', [
          { payload: [{ conversational: { content: { text: `w${w}-${i}` }, role: 'USER' } }], metadata: { writer: { stringValue: String(w) }, i: { stringValue: String(i) } } },
        ]);
        await new Promise((r) => setImmediate(r));
      }
    }),
  );
  await store.close();
} else if (mode === 'loop') {
  for (let i = 0; ; i++) {
    const [e] = await store.appendEvents('alice', 'killed', [{ payload: [{ conversational: { content: { text: `n${i}` }, role: i % 2 ? 'ASSISTANT' : 'USER' } }] }]);
    process.stdout.write(`${e!.eventId}\n`);
  }
} else {
  throw new Error(`unknown mode ${String(mode)}`);
}
