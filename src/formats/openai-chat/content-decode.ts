/**
 * Chat Completions content parts -> canonical parts. Input has passed the schema, so shapes are
 * known; every field not mapped stays as residue on the part (nested objects under their own key).
 */
import type { JsonObject } from '../../model/json.js';
import type { Part, TextPart } from '../../model/part.js';
import type { Source } from '../../model/source.js';
import { parseDataUrl } from '../shared/data-url.js';
import { keepResidue, residue } from '../shared/residue.js';
import { OPENAI_CHAT } from './openai-chat-api.js';

const TEXT_KEYS = new Set(['type', 'text']);
const REFUSAL_KEYS = new Set(['type', 'refusal']);
const IMAGE_KEYS = new Set(['type', 'image_url']);
const IMAGE_URL_KEYS = new Set(['url', 'detail']);
const AUDIO_KEYS = new Set(['type', 'input_audio']);
const INPUT_AUDIO_KEYS = new Set(['data', 'format']);
const FILE_KEYS = new Set(['type', 'file']);
const FILE_INNER_KEYS = new Set(['file_data', 'file_id', 'filename']);

/**
 * input_audio formats <-> media types. `mp3` is `audio/mpeg` (the registered type); other format
 * names a provider may accept map to `audio/<format>` and back unchanged.
 */
export function audioMediaType(format: string): string {
  return format === 'mp3' ? 'audio/mpeg' : `audio/${format}`;
}

/** Residue of `obj` plus, under `key`, the residue of its nested object `obj[key]`. */
function nestedResidue(obj: JsonObject, known: ReadonlySet<string>, key: string, innerKnown: ReadonlySet<string>): JsonObject | undefined {
  let rest = residue(obj, known);
  const inner = obj[key] as JsonObject;
  const innerRest = residue(inner, innerKnown);
  if (innerRest !== undefined) (rest ??= {})[key] = innerRest;
  return rest;
}

/** Adds a codec-private hint (a `$` key) to a residue object. */
export function withHint(rest: JsonObject | undefined, key: string, value: JsonObject[string]): JsonObject {
  const out = rest ?? {};
  out[key] = value;
  return out;
}

export function decodeText(p: JsonObject): TextPart {
  const part: TextPart = { type: 'text', text: p['text'] as string };
  keepResidue(part, OPENAI_CHAT, residue(p, TEXT_KEYS));
  return part;
}

function urlSource(url: string): Source {
  const parsed = parseDataUrl(url);
  return parsed ? { kind: 'base64', mediaType: parsed.mediaType, data: parsed.data } : { kind: 'url', url };
}

function decodeFile(p: JsonObject): Part {
  const file = p['file'] as JsonObject;
  const data = file['file_data'];
  const id = file['file_id'];
  let source: Source | undefined;
  if (typeof data === 'string' && id === undefined) {
    const parsed = parseDataUrl(data);
    if (parsed) source = { kind: 'base64', mediaType: parsed.mediaType, data: parsed.data };
  } else if (typeof id === 'string' && data === undefined) source = { kind: 'file-id', fileId: id };
  // Raw base64 without a media type (never guessed), both or neither: keep the block whole.
  if (source === undefined) return { type: 'provider-block', origin: OPENAI_CHAT, block: p };
  const part: Part = { type: 'document', source };
  if (typeof file['filename'] === 'string') part.name = file['filename'];
  keepResidue(part, OPENAI_CHAT, nestedResidue(p, FILE_KEYS, 'file', FILE_INNER_KEYS));
  return part;
}

/** One user / system / tool / assistant content part (schema-checked). */
export function decodePart(p: JsonObject): Part {
  switch (p['type']) {
    case 'text':
      return decodeText(p);
    case 'image_url': {
      const img = p['image_url'] as JsonObject;
      const part: Part = { type: 'image', source: urlSource(img['url'] as string) };
      if (typeof img['detail'] === 'string') part.detail = img['detail'];
      keepResidue(part, OPENAI_CHAT, nestedResidue(p, IMAGE_KEYS, 'image_url', IMAGE_URL_KEYS));
      return part;
    }
    case 'input_audio': {
      const audio = p['input_audio'] as JsonObject;
      const part: Part = {
        type: 'audio',
        source: { kind: 'base64', mediaType: audioMediaType(audio['format'] as string), data: audio['data'] as string },
      };
      keepResidue(part, OPENAI_CHAT, nestedResidue(p, AUDIO_KEYS, 'input_audio', INPUT_AUDIO_KEYS));
      return part;
    }
    case 'file':
      return decodeFile(p);
    default: {
      // 'refusal' (assistant content arrays): marked so it goes back into the array, not the field.
      const part: Part = { type: 'refusal', text: p['refusal'] as string };
      keepResidue(part, OPENAI_CHAT, withHint(residue(p, REFUSAL_KEYS), '$inContent', true));
      return part;
    }
  }
}

/** The content's form, as decodeContent reports it: shared read-only answers, none made per message. */
export interface ContentForm {
  readonly string: boolean;
  readonly textArray: boolean;
}
const STRING_FORM: ContentForm = Object.freeze({ string: true, textArray: false });
const TEXT_ARRAY_FORM: ContentForm = Object.freeze({ string: false, textArray: true });
const ARRAY_FORM: ContentForm = Object.freeze({ string: false, textArray: false });

/**
 * A `content` value (string or parts) into `parts`. Returns whether it was a string. Several
 * parts that are all text get the `$textArray` hint so the encoder keeps the array rather than
 * joining them (it joins text from other formats).
 */
export function decodeContent(content: string | JsonObject[], parts: Part[]): ContentForm {
  if (typeof content === 'string') {
    parts.push({ type: 'text', text: content });
    return STRING_FORM;
  }
  let allText = true;
  for (const p of content) {
    const part = decodePart(p);
    if (part.type !== 'text') allText = false;
    parts.push(part);
  }
  return allText && content.length > 1 ? TEXT_ARRAY_FORM : ARRAY_FORM;
}
