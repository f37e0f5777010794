/**
 * zod schemas for inbound A2A objects, one set per version. They check shape and types only and
 * let unknown keys through (residue to the decoder). v1.0 follows a2a.proto (REQUIRED fields,
 * exactly one content field per Part); v0.3 follows the v0.3.0 JSON schema, except that `kind` may
 * be left out on nested messages and tasks and `final` on status updates, as the v0.3.0 spec's own
 * examples do (the object's place says what it is).
 */
import { z } from 'zod';
import { ROLES_V1, STATES_V03, STATES_V1 } from './a2a-api.js';

const Metadata = z.record(z.string(), z.unknown(), { error: 'metadata must be an object' });
const Strings = z.array(z.string());
const Id = (what: string) => z.string({ error: `${what} must be a string` }).min(1, { error: `${what} must not be empty` });

// ---- v1.0 ----

const CONTENT_KEYS = ['text', 'raw', 'url', 'data'] as const;

export const V1PartSchema = z
  .looseObject({
    text: z.string().optional(),
    raw: z.string().optional(),
    url: z.string().optional(),
    data: z.unknown().optional(),
    metadata: Metadata.optional(),
    filename: z.string().optional(),
    mediaType: z.string().optional(),
  })
  .superRefine((p, ctx) => {
    const present = CONTENT_KEYS.filter((k) => p[k] !== undefined);
    if (present.length !== 1) {
      ctx.addIssue({ code: 'custom', message: `a part holds exactly one of text, raw, url, data (found ${present.length === 0 ? 'none' : present.join(', ')})` });
    }
  });

export const V1MessageSchema = z.looseObject({
  messageId: Id('messageId'),
  contextId: z.string().optional(),
  taskId: z.string().optional(),
  role: z.enum(ROLES_V1.filter((r) => r !== 'ROLE_UNSPECIFIED') as ['ROLE_USER', 'ROLE_AGENT'], { error: 'role must be ROLE_USER or ROLE_AGENT' }),
  parts: z.array(V1PartSchema).min(1, { error: 'a message needs at least one part' }),
  metadata: Metadata.optional(),
  extensions: Strings.optional(),
  referenceTaskIds: Strings.optional(),
});

const V1StatusSchema = z.looseObject({
  state: z.enum(STATES_V1, { error: 'state must be a TASK_STATE_* name' }),
  message: V1MessageSchema.optional(),
  timestamp: z.string().optional(),
});

export const V1ArtifactSchema = z.looseObject({
  artifactId: Id('artifactId'),
  name: z.string().optional(),
  description: z.string().optional(),
  parts: z.array(V1PartSchema).min(1, { error: 'an artifact needs at least one part' }),
  metadata: Metadata.optional(),
  extensions: Strings.optional(),
});

export const V1TaskSchema = z.looseObject({
  id: Id('id'),
  contextId: z.string().optional(),
  status: V1StatusSchema,
  artifacts: z.array(V1ArtifactSchema).optional(),
  history: z.array(V1MessageSchema).optional(),
  metadata: Metadata.optional(),
});

export const V1StatusUpdateSchema = z.looseObject({
  taskId: Id('taskId'),
  contextId: z.string(),
  status: V1StatusSchema,
  metadata: Metadata.optional(),
});

export const V1ArtifactUpdateSchema = z.looseObject({
  taskId: Id('taskId'),
  contextId: z.string(),
  artifact: V1ArtifactSchema,
  append: z.boolean().optional(),
  lastChunk: z.boolean().optional(),
  metadata: Metadata.optional(),
});

// ---- v0.3 ----

const FileSchema = z
  .looseObject({ bytes: z.string().optional(), uri: z.string().optional(), mimeType: z.string().optional(), name: z.string().optional() })
  .superRefine((f, ctx) => {
    // The v0.3.0 spec's streaming example writes the bytes under `data`; versions.ts reads that too.
    const n = [f.bytes, f.uri, f['data']].filter((v) => v !== undefined).length;
    if (n !== 1) ctx.addIssue({ code: 'custom', message: 'a file holds exactly one of bytes, uri' });
  });

export const V03PartSchema = z.discriminatedUnion(
  'kind',
  [
    z.looseObject({ kind: z.literal('text'), text: z.string(), metadata: Metadata.optional() }),
    z.looseObject({ kind: z.literal('file'), file: FileSchema, metadata: Metadata.optional() }),
    z.looseObject({ kind: z.literal('data'), data: z.record(z.string(), z.unknown(), { error: 'data must be an object in v0.3' }), metadata: Metadata.optional() }),
  ],
  { error: "part kind must be 'text', 'file' or 'data'" },
);

export const V03MessageSchema = z.looseObject({
  kind: z.literal('message').optional(),
  messageId: Id('messageId'),
  role: z.enum(['user', 'agent'], { error: "role must be 'user' or 'agent'" }),
  parts: z.array(V03PartSchema).min(1, { error: 'a message needs at least one part' }),
  contextId: z.string().optional(),
  taskId: z.string().optional(),
  metadata: Metadata.optional(),
  extensions: Strings.optional(),
  referenceTaskIds: Strings.optional(),
});

const V03StatusSchema = z.looseObject({
  // `created` is no v0.3 state, but the source design's streams open with it (= submitted).
  state: z.enum([...STATES_V03, 'created'], { error: 'state must be a v0.3 task state' }),
  message: V03MessageSchema.optional(),
  timestamp: z.string().optional(),
});

export const V03ArtifactSchema = z.looseObject({
  artifactId: Id('artifactId'),
  name: z.string().optional(),
  description: z.string().optional(),
  parts: z.array(V03PartSchema).min(1, { error: 'an artifact needs at least one part' }),
  metadata: Metadata.optional(),
  extensions: Strings.optional(),
});

export const V03TaskSchema = z.looseObject({
  kind: z.literal('task').optional(),
  id: Id('id'),
  contextId: z.string().optional(),
  status: V03StatusSchema,
  artifacts: z.array(V03ArtifactSchema).optional(),
  history: z.array(V03MessageSchema).optional(),
  metadata: Metadata.optional(),
});

export const V03StatusUpdateSchema = z.looseObject({
  kind: z.literal('status-update').optional(),
  taskId: Id('taskId'),
  contextId: z.string(),
  status: V03StatusSchema,
  final: z.boolean().optional(),
  metadata: Metadata.optional(),
});

export const V03ArtifactUpdateSchema = z.looseObject({
  kind: z.literal('artifact-update').optional(),
  taskId: Id('taskId'),
  contextId: z.string(),
  artifact: V03ArtifactSchema,
  append: z.boolean().optional(),
  lastChunk: z.boolean().optional(),
  metadata: Metadata.optional(),
});
