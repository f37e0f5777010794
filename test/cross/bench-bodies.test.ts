/**
 * The bench's generated conversations (bench/convert/generate.ts: text, reasoning with signatures,
 * tool calls and results, small images in tool results, 20 messages) from every source to every
 * target format: what is written is a body the target's own decoder accepts, and with `preserve`
 * the way back gives the source body exactly. The captures test each feature alone; these bodies
 * put them next to each other (a run of tool messages with an image in one of them, ...).
 */
import { describe, expect, it } from 'vitest';
import { convert, decode } from '../../src/index.js';
import { requestBodies, SOURCES, TARGETS } from '../../bench/convert/bodies.js';

/** The bench's provider targets, and the agent protocols and AgentCore Memory events. */
const ALL_TARGETS = [...TARGETS, 'ag-ui', 'a2a', 'agentcore-memory'];

for (const images of ['none', 'small'] as const) {
  const bodies = requestBodies(20, images, [...SOURCES]);
  describe(`bench conversation, 20 messages, ${images} images`, () => {
    for (const from of SOURCES) {
      const text = bodies.text.get(from);
      const pairs = ALL_TARGETS.filter((to) => to !== from).map((to) => [to] as const);
      it.each(pairs)(`${from} -> %s decodes in the target, and comes back exactly under preserve`, (to) => {
        expect(text).toBeDefined();
        const plain = convert(JSON.parse(text as string), { from, to });
        expect(() => decode(JSON.parse(JSON.stringify(plain.value)), { from: to })).not.toThrow();
        const kept = convert(JSON.parse(text as string), { from, to, preserve: true });
        const back = convert(JSON.parse(JSON.stringify(kept.value)), { from: to, to: from });
        expect(back.losses.filter((l) => l.code === 'stale-stash')).toEqual([]);
        expect(back.value).toEqual(JSON.parse(text as string));
      });
    }
  });
}
