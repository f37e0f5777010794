/**
 * zod schemas for the nested objects of an agent input whose rules are fixed-shape: a media
 * block's source object and an assistant's tool call. Messages are ml-commons' (`AgentInput.java`,
 * protocols.md §4.2-4.3) where it has one; they check shape only (zod strips unknown keys, which
 * the decoder keeps as residue from the original object).
 */
import { z } from 'zod';
import type { MediaKind } from './agent-input-api.js';
import { formatsOf, mediaTypeOf } from './media-formats.js';
import { isBase64Text } from '../shared/base64.js';

/** A required, non-blank string: ml-commons rejects `null` and `"  "` alike. */
function required(message: string) {
  return z.string({ error: message }).superRefine((v, ctx) => {
    if (v.trim() === '') ctx.addIssue({ code: 'custom', message });
  });
}

const LABEL: Record<MediaKind, string> = { image: 'Image', video: 'Video', document: 'Document' };

const SOURCE_SCHEMAS = new Map<MediaKind, ReturnType<typeof buildMediaSourceSchema>>();

/** The media object of an image / video / document block (built once per kind: zod schemas are costly to make). */
export function mediaSourceSchema(kind: MediaKind): ReturnType<typeof buildMediaSourceSchema> {
  let schema = SOURCE_SCHEMAS.get(kind);
  if (schema === undefined) SOURCE_SCHEMAS.set(kind, (schema = buildMediaSourceSchema(kind)));
  return schema;
}

function buildMediaSourceSchema(kind: MediaKind) {
  const label = LABEL[kind];
  return z.object(
    {
      type: required(`${label} source type is required`).superRefine((v, ctx) => {
        const t = v.toLowerCase();
        if (v.trim() !== '' && t !== 'base64' && t !== 'url') {
          ctx.addIssue({ code: 'custom', message: 'Invalid source type. Supported types: BASE64, URL', input: v });
        }
      }),
      format: required(`${label} format is required`).superRefine((v, ctx) => {
        if (v.trim() !== '' && mediaTypeOf(kind, v) === undefined) {
          ctx.addIssue({ code: 'custom', message: `Unsupported ${kind} format: ${v}. Supported formats: ${formatsOf(kind).join(', ')}`, input: v });
        }
      }),
      data: required(`${label} data is required`),
    },
    { error: `${label} content block must have ${kind} data` },
  ).superRefine((v, ctx) => {
    // Base64 data goes to providers as bytes: text outside the alphabet is refused here, not there.
    if (v.type.toLowerCase() === 'base64' && !isBase64Text(v.data)) {
      ctx.addIssue({ code: 'custom', path: ['data'], message: `${label} data is not valid base64`, input: v.data });
    }
  });
}

export const ToolCallSchema = z.object(
  {
    id: required('Tool call must have an id'),
    // ml-commons defaults a missing type to "function"; a present one must say so.
    type: z.literal('function', { error: "Tool call type must be 'function'" }).optional(),
    function: z.object(
      {
        name: required('Tool call function must have a name'),
        arguments: z.string({ error: 'Tool call function must have arguments' }),
      },
      { error: 'Tool call must have a function' },
    ),
  },
  { error: 'Tool call must be an object' },
);
