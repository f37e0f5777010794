import { defineConfig } from 'vitest/config';

/** `npm run test:package`: the package as users install it (test/package/), apart because it builds and packs. */
export default defineConfig({
  test: {
    include: ['test/package/**/*.test.ts'],
    // npm pack runs the build; each scenario runs tsc over its dependencies' declarations.
    hookTimeout: 600_000,
    testTimeout: 300_000,
  },
});
