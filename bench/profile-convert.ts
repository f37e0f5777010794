/**
 * Profiling driver (not a bench): converts one pair in a loop for `node --cpu-prof`.
 *   PAIR=openai-chat:anthropic-messages IMAGES=0 node --cpu-prof --import tsx bench/profile-convert.ts
 * MSGS=20|200|2000 (with IMAGES=none|small) converts the bench's generated conversation instead of
 * the original one; KIND=response converts the bench's response body.
 */
import { convert } from '../src/index.js';
import { anthropicConversation } from './conversation.js';
import { requestBodies, responseBodies } from './convert/bodies.js';
import type { Images } from './convert/generate.js';

const [from = 'openai-chat', to = 'anthropic-messages'] = (process.env['PAIR'] ?? '').split(':').filter(Boolean);
const ms = Number(process.env['PROFILE_MS'] ?? 6000);
const preserve = process.env['PRESERVE'] === '1';
const kind = process.env['KIND'] === 'response' ? 'response' : 'request';
const msgs = process.env['MSGS'];

function sourceText(): string {
  if (kind === 'response') return responseBodies([from]).text.get(from) ?? '';
  if (msgs !== undefined) return requestBodies(Number(msgs), (process.env['IMAGES'] ?? 'none') as Images, [from]).text.get(from) ?? '';
  const source = anthropicConversation({ images: process.env['IMAGES'] !== '0' });
  return JSON.stringify(from === 'anthropic-messages' ? source : convert(source, { from: 'anthropic-messages', to: from }).value);
}

const text = sourceText();
let sink = 0;
const t0 = Date.now();
let n = 0;
while (Date.now() - t0 < ms) {
  const { value } = convert(JSON.parse(text), { from, to, preserve, kind });
  sink += JSON.stringify(value).length;
  n++;
}
console.log(`${from} -> ${to}: ${n} conversions, ${((Date.now() - t0) / n).toFixed(3)} ms each`, sink > 0 ? '' : sink);
