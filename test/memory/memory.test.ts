/** The in-process backend against the conformance suite. */
import { MemoryBackend } from '../../src/memory/backends/memory.js';
import { createEventStore } from '../../src/memory/index.js';
import { conformance } from './conformance.js';

conformance({
  name: 'memory:',
  async storage() {
    const backend = new MemoryBackend();
    return {
      open: async (options) => createEventStore(backend, options),
      stored: async () => backend.size,
      durable: false,
      connections: false,
      dispose: async () => {},
    };
  },
});
