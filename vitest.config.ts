import { defineConfig } from 'vitest/config';
import { aliases } from './scripts/aliases.mjs';

// Three suites, one runner: unit (pure code), server (reference API over PGlite, and PostgreSQL
// when TEST_DATABASE_URL is set), browser (built app in Debian's Chromium via playwright-core).
export default defineConfig({
  resolve: { alias: aliases },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          include: ['tests/unit/**/*.test.ts', 'src/**/*.test.ts', 'cli/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          sequence: { groupOrder: 1 },
          globalSetup: ['tests/helpers/database-template.setup.ts'],
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Each file starts its own server and database; two cores, so two at a time.
          maxWorkers: 2,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          sequence: { groupOrder: 2 },
          globalSetup: ['tests/helpers/database-template.setup.ts'],
          include: ['tests/browser/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
