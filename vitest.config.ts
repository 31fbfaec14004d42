import { defineConfig } from 'vitest/config';
import { aliases } from './scripts/aliases.mjs';

// Three suites, one runner: unit (pure code), server (reference API over PGlite, and PostgreSQL
// when TEST_DATABASE_URL is set), browser (built app in Debian's Chromium via playwright-core).
/** Unit test files that call vi.mock: they run isolated (see the unit-mocking project). */
export const MOCKS_MODULES = ['src/access/access.test.ts'];

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
          exclude: MOCKS_MODULES,
          environment: 'node',
          // A test waits for events, not for time: the timeout only ends a hung test. The suites share two
          // cores with each other (and CI machines with other work), so a few seconds are no bound.
          testTimeout: 30_000,
          hookTimeout: 30_000,
          // Files share a worker's modules instead of importing them again each: a test's state lives in
          // what it creates, never in module state. Isolated, the suite spends more time importing than testing.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // Files that replace a module (vi.mock) keep a module graph of their own, so no replacement
          // reaches another file.
          name: 'unit-mocking',
          sequence: { groupOrder: 0 },
          include: MOCKS_MODULES,
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          sequence: { groupOrder: 1 },
          globalSetup: ['tests/helpers/database-template.setup.ts'],
          setupFiles: ['tests/helpers/contract-guard.setup.ts'],
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Each file starts its own server and database; two cores, so two at a time. Every server keeps
          // its state in its own context, so files share a worker's modules (see the unit project).
          maxWorkers: 2,
          isolate: false,
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
