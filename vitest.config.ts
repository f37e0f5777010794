import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 60_000,
    // One fast-check seed for the whole suite (PROPERTY_SEED overrides): docs/decisions/0006-property-seeds.md
    setupFiles: ['test/support/fast-check-seed.ts'],
  },
});
