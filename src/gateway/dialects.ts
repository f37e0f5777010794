/**
 * What the gateway needs to know of each client/provider dialect beyond its codecs: where the
 * model and the stream switch live, how its stream is framed and typed, where its messages are.
 */
import type { Dialect } from './config.js';

export interface DialectFacts {
  /** Body field naming the model, or undefined when the path names it (Gemini, Bedrock). */
  modelField: 'model' | 'modelId' | undefined;
  /** Whether streaming is a body field (`stream: true`) rather than an endpoint. */
  streamInBody: boolean;
  framing: 'sse' | 'aws-event-stream';
  streamContentType: string;
  /** The body key holding the conversation. */
  messagesKey: 'messages' | 'contents' | 'input';
  /** The gateway's own path prefix before the provider path (OpenAI SDK base URLs end in /v1). */
  pathPrefix: string;
}

export const DIALECT_FACTS: Readonly<Record<Dialect, DialectFacts>> = {
  'openai-chat': { modelField: 'model', streamInBody: true, framing: 'sse', streamContentType: 'text/event-stream', messagesKey: 'messages', pathPrefix: '/v1' },
  'openai-responses': { modelField: 'model', streamInBody: true, framing: 'sse', streamContentType: 'text/event-stream', messagesKey: 'input', pathPrefix: '/v1' },
  'anthropic-messages': { modelField: 'model', streamInBody: true, framing: 'sse', streamContentType: 'text/event-stream', messagesKey: 'messages', pathPrefix: '' },
  gemini: { modelField: undefined, streamInBody: false, framing: 'sse', streamContentType: 'text/event-stream', messagesKey: 'contents', pathPrefix: '' },
  'bedrock-converse': { modelField: undefined, streamInBody: false, framing: 'aws-event-stream', streamContentType: 'application/vnd.amazon.eventstream', messagesKey: 'messages', pathPrefix: '' },
};

/** The field a codec reads the model from when the wire has it in the path (so it is not reported missing). */
export function bodyModelKey(d: Dialect): 'model' | 'modelId' {
  return d === 'bedrock-converse' ? 'modelId' : 'model';
}
