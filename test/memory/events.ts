/**
 * Events built by hand in AgentCore's shape (reference §1.2), and the Camunda layouts the turn rule
 * must read: the blob texts below are the exact envelopes of Camunda's tests as the reference
 * quotes them (§4.3 metadata blob of the store tests, §4.9 storesAssistantMessageWithToolCalls and
 * restoresToolRoleMessagesOnLoad, §4.2 document reference).
 */
import type { NewEvent, PayloadItem, StoredEvent } from '../../src/memory/index.js';

export const conv = (role: 'USER' | 'ASSISTANT' | 'TOOL' | 'OTHER', text: string): PayloadItem => ({
  conversational: { content: { text }, role },
});

export const user = (text: string): NewEvent => ({ payload: [conv('USER', text)] });
export const assistant = (text: string): NewEvent => ({ payload: [conv('ASSISTANT', text)] });

export const metaBlob = (role: 'USER' | 'ASSISTANT' | 'TOOL'): PayloadItem => ({
  blob: `{"blobType":"camunda.messageMetadata","version":1,"metadata":{},"properties":{"role":"${role}"}}`,
});

export const TOOL_CALLS_BLOB =
  '{"blobType":"camunda.toolCalls","version":1,"toolCalls":[{"id":"call_123","name":"getWeather","arguments":{"location":"Seattle"}},{"id":"call_456","name":"getTime","arguments":{}}]}';
export const TOOL_RESULTS_BLOB =
  '{"blobType":"camunda.toolCallResults","version":1,"results":[{"id":"call_1","name":"myTool","content":[{"type":"text","text":"tool output"}]}]}';
export const DOCUMENT_BLOB = JSON.stringify({
  blobType: 'camunda.messageContent',
  version: 1,
  content: {
    type: 'document',
    document: { 'camunda.document.type': 'camunda', storeId: 'in-memory', documentId: 'doc-1', contentHash: 'abc', metadata: {} },
  },
});

/** Camunda's layouts: every event ends with the metadata blob that names the role. */
export const camunda = {
  user: (text: string): NewEvent => ({ payload: [conv('USER', text), metaBlob('USER')] }),
  /** A user message of only a document: no conversational payload at all (Camunda test #7). */
  documentOnlyUser: (): NewEvent => ({ payload: [{ blob: DOCUMENT_BLOB }, metaBlob('USER')] }),
  /** An assistant message of only a document: without its metadata blob it would read as a user message. */
  documentOnlyAssistant: (): NewEvent => ({ payload: [{ blob: DOCUMENT_BLOB }, metaBlob('ASSISTANT')] }),
  assistantWithCalls: (text: string): NewEvent => ({ payload: [conv('ASSISTANT', text), { blob: TOOL_CALLS_BLOB }, metaBlob('ASSISTANT')] }),
  /** Tool calls only: blob + metadata (Camunda deserializesAssistantWithToolCallsBlobOnlyWhenTextIsEmpty). */
  callsOnlyAssistant: (): NewEvent => ({ payload: [{ blob: TOOL_CALLS_BLOB }, metaBlob('ASSISTANT')] }),
  toolResult: (): NewEvent => ({ payload: [conv('TOOL', 'tool output'), { blob: TOOL_RESULTS_BLOB }, metaBlob('TOOL')] }),
};

/** The text of an event's first conversational payload, or a tag for its first blob. */
export function label(e: StoredEvent): string {
  const first = e.payload[0];
  if (first && 'conversational' in first) return first.conversational.content.text;
  return first && 'blob' in first ? 'blob' : '(empty)';
}

export const labels = (events: StoredEvent[]): string[] => events.map(label);
export const turnLabels = (turns: StoredEvent[][]): string[][] => turns.map(labels);
