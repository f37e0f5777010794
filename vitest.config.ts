import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // The installed-package checks build and pack first: `npm run test:package` (vitest.package.config.ts).
    exclude: [...configDefaults.exclude, 'test/package/**'],
    testTimeout: 60_000,
    // One fast-check seed for the whole suite (PROPERTY_SEED overrides): docs/decisions/0006-property-seeds.md
    setupFiles: ['test/support/fast-check-seed.ts'],
  },
});
