import type { HasExt } from './ext.js';
import type { Part } from './part.js';

/** Where the bytes of an image, audio clip, video or document live. */
export type Source =
  | Base64Source
  | UrlSource
  | FileIdSource
  | S3Source
  | TextSource
  | ContentSource;

/** Inline bytes. `mediaType` comes from the wire (a data URL or a media_type field), never guessed. */
export interface Base64Source extends HasExt {
  kind: 'base64';
  mediaType: string;
  data: string;
}
export interface UrlSource extends HasExt {
  kind: 'url';
  url: string;
  mediaType?: string;
}
/** A file uploaded to a provider's file store; only that provider can resolve it. */
export interface FileIdSource extends HasExt {
  kind: 'file-id';
  fileId: string;
  mediaType?: string;
}
export interface S3Source extends HasExt {
  kind: 's3';
  uri: string;
  bucketOwner?: string;
  mediaType?: string;
}
/** A plain-text document given inline. */
export interface TextSource extends HasExt {
  kind: 'text';
  text: string;
  mediaType?: string;
}
/** A document made of content parts (Anthropic `content` document source). */
export interface ContentSource extends HasExt {
  kind: 'content';
  parts: Part[];
}
