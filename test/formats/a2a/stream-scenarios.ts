/**
 * A2A streams for the stream tests, each produced by @a2a-js/sdk's own server from what an agent
 * executor publishes (helpers.ts `sdkServerStream`), so the wire is the SDK's serialization:
 * - `typed`: the source design's event stream — each status update carries one message naming its
 *   AG-UI event (text chunks and end, a tool call's start and argument fragments, its result), the
 *   final update carries usage;
 * - `artifacts`: the spec's / LiteLLM's shape — text streamed as artifact updates (append,
 *   lastChunk), then completed;
 * - `message-only`: one plain Message as the whole answer;
 * - `task-only`: one completed Task with a status message and a data artifact;
 * - `input-required`: a client tool call, the task stopping for its result;
 * - `failed`: a failed status update with the error text.
 */
import type { JsonObject } from '../../../src/model/json.js';

const T = 'task-7';
const C = 'ctx-7';

function msg(id: string, type: string | undefined, parts: JsonObject[]): JsonObject {
  return { messageId: id, role: 'ROLE_AGENT', contextId: C, taskId: T, parts, ...(type ? { metadata: { canonical_type: type } } : {}) };
}

function working(message: JsonObject): JsonObject {
  return { statusUpdate: { taskId: T, contextId: C, status: { state: 'TASK_STATE_WORKING', message } } };
}

const task = (state = 'TASK_STATE_SUBMITTED'): JsonObject => ({ task: { id: T, contextId: C, status: { state }, metadata: { canonical_type: 'RunStartedEvent' } } });
const final = (state: string, metadata?: JsonObject): JsonObject => ({ statusUpdate: { taskId: T, contextId: C, status: { state, timestamp: '2026-03-01T10:00:00.000Z' }, ...(metadata ? { metadata } : {}) } });

export const SCENARIOS: Record<string, JsonObject[]> = {
  typed: [
    task(),
    working(msg('m-1', 'TextMessageChunkEvent', [{ text: 'Let me ' }])),
    working(msg('m-1', 'TextMessageChunkEvent', [{ text: 'check.' }])),
    working(msg('m-1', 'TextMessageEndEvent', [{ text: 'Let me check.' }])),
    working(msg('m-1', 'ToolCallStartEvent', [{ data: { tool_calls: [{ call_id: 'call-1', name: 'get_weather', arguments: '' }] } }])),
    working(msg('m-1', 'ToolCallArgsEvent', [{ data: { tool_calls: [{ call_id: 'call-1', name: 'get_weather', arguments: '{"city":' }] } }])),
    working(msg('m-1', 'ToolCallArgsEvent', [{ data: { tool_calls: [{ call_id: 'call-1', name: 'get_weather', arguments: '"Paris"}' }] } }])),
    working(msg('m-2', 'ToolCallResultEvent', [{ data: { tool_results: [{ call_id: 'call-1', name: 'get_weather', output: 'sunny, 21 C' }] } }])),
    working(msg('m-1', 'TextMessageChunkEvent', [{ text: 'It is sunny in Paris' }])),
    working(msg('m-1', 'TextMessageChunkEvent', [{ text: ' (21 C).' }])),
    working(msg('m-1', 'TextMessageEndEvent', [{ text: 'It is sunny in Paris (21 C).' }])),
    final('TASK_STATE_COMPLETED', { canonical_type: 'RunFinishedEvent', usage: { inputTokens: 120, outputTokens: 42, totalTokens: 162 } }),
  ],
  artifacts: [
    task(),
    { statusUpdate: { taskId: T, contextId: C, status: { state: 'TASK_STATE_WORKING' }, metadata: { canonical_type: 'StepStartedEvent' } } },
    { artifactUpdate: { taskId: T, contextId: C, artifact: { artifactId: 'art-1', name: 'response', parts: [{ text: 'Why did the chicken ' }] } } },
    { artifactUpdate: { taskId: T, contextId: C, artifact: { artifactId: 'art-1', parts: [{ text: 'cross the road?' }] }, append: true } },
    { artifactUpdate: { taskId: T, contextId: C, artifact: { artifactId: 'art-1', parts: [{ text: ' To get to the other side.' }] }, append: true, lastChunk: true } },
    final('TASK_STATE_COMPLETED'),
  ],
  'message-only': [{ message: { messageId: 'reply-1', role: 'ROLE_AGENT', contextId: C, parts: [{ text: 'Why did the chicken cross the road? To get to the other side!' }] } }],
  'task-only': [
    {
      task: {
        id: T,
        contextId: C,
        status: { state: 'TASK_STATE_COMPLETED', message: msg('m-9', undefined, [{ text: 'Booked. Details are in the artifact.' }]), timestamp: '2026-03-01T10:00:00.000Z' },
        artifacts: [{ artifactId: 'itinerary', name: 'FlightItinerary.json', parts: [{ data: { confirmationId: 'XYZ123', from: 'JFK', to: 'LHR' } }] }],
      },
    },
  ],
  'input-required': [
    task(),
    working(msg('m-1', 'ToolCallStartEvent', [{ data: { tool_calls: [{ call_id: 'call-9', name: 'lookup', arguments: '' }] } }])),
    working(msg('m-1', 'ToolCallArgsEvent', [{ data: { tool_calls: [{ call_id: 'call-9', name: 'lookup', arguments: '{"q":"flights"}' }] } }])),
    final('TASK_STATE_INPUT_REQUIRED', { canonical_type: 'StepFinishedEvent' }),
  ],
  failed: [
    task(),
    working(msg('m-1', 'TextMessageChunkEvent', [{ text: 'Work' }])),
    { statusUpdate: { taskId: T, contextId: C, status: { state: 'TASK_STATE_FAILED', message: msg('m-e', undefined, [{ text: 'upstream model overloaded' }]) }, metadata: { canonical_type: 'RunErrorEvent' } } },
  ],
};

/** What each scenario's accumulated answer holds: its texts, tool calls and usage. */
export const EXPECTED: Record<string, { texts: string[]; calls: { id: string; name: string; args: unknown }[]; stop?: string; error?: string; output?: number }> = {
  typed: { texts: ['Let me check.', 'It is sunny in Paris (21 C).'], calls: [{ id: 'call-1', name: 'get_weather', args: { city: 'Paris' } }], stop: 'stop', output: 42 },
  artifacts: { texts: ['Why did the chicken cross the road? To get to the other side.'], calls: [], stop: 'stop' },
  'message-only': { texts: ['Why did the chicken cross the road? To get to the other side!'], calls: [], stop: 'stop' },
  'task-only': { texts: ['Booked. Details are in the artifact.'], calls: [], stop: 'stop' },
  'input-required': { texts: [], calls: [{ id: 'call-9', name: 'lookup', args: { q: 'flights' } }], stop: 'tool-calls' },
  failed: { texts: [], calls: [], error: 'upstream model overloaded' },
};
