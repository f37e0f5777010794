/**
 * Profiling driver (not a bench): converts one pair in a loop for `node --cpu-prof`.
 *   PAIR=openai-chat:anthropic-messages IMAGES=0 node --cpu-prof --import tsx bench/profile-convert.ts
 */
import { convert } from '../src/index.js';
import { anthropicConversation } from './conversation.js';

const [from = 'openai-chat', to = 'anthropic-messages'] = (process.env['PAIR'] ?? '').split(':').filter(Boolean);
const images = process.env['IMAGES'] !== '0';
const ms = Number(process.env['PROFILE_MS'] ?? 6000);
const preserve = process.env['PRESERVE'] === '1';
const source = anthropicConversation({ images });
const body = from === 'anthropic-messages' ? source : convert(source, { from: 'anthropic-messages', to: from }).value;
const text = JSON.stringify(body);
let sink = 0;
const t0 = Date.now();
let n = 0;
while (Date.now() - t0 < ms) {
  const { value } = convert(JSON.parse(text), { from, to, preserve });
  sink += JSON.stringify(value).length;
  n++;
}
console.log(`${from} -> ${to}: ${n} conversions, ${((Date.now() - t0) / n).toFixed(2)} ms each`, sink > 0 ? '' : sink);
