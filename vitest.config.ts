import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * API files that need a process of their own (decision 95): auth-flood replaces argon2 with a mock, and
 * pdf-bombs fills the PDF threads' memory and queue, whose time bounds the files before it would disturb.
 */
const ISOLATED_SERVER_FILES = ['server/test/auth-flood.test.ts', 'server/test/pdf-bombs.test.ts'];

/** Web tests that bundle with Vite rather than render: out of the web project's VM contexts. */
const WEB_BUILD_FILES = ['web/src/build/**/*.test.ts'];

export default defineConfig({
  test: {
    // Vitest's default leaves one core to the main process: a single worker on a 2-core machine.
    // The files are independent (a database each), so use every core.
    maxWorkers: Math.max(2, os.availableParallelism()),
    projects: [
      {
        test: {
          name: 'contract',
          include: ['contract/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'scripts',
          include: ['scripts/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'rich-text',
          include: ['rich-text/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['server/src/**/*.test.ts', 'server/test/**/*.test.ts'],
          exclude: ISOLATED_SERVER_FILES,
          environment: 'node',
          globalSetup: ['server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          // Each API file builds its own app on its own database: the files of a worker share the app's modules
          // instead of importing them again for every file, ~200 s of a CI run (decision 95).
          isolate: false,
        },
      },
      {
        test: {
          name: 'server-isolated',
          include: ISOLATED_SERVER_FILES,
          environment: 'node',
          globalSetup: ['server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
          exclude: WEB_BUILD_FILES,
          environment: 'jsdom',
          // Each file in a VM context of a worker that stays (decision 125): a file still has its own modules and its
          // own window, but no longer a process of its own that loads jsdom again. Measured on the 84 files alone:
          // 175 s (environment set-up 141 s of it) with the default pool, 64 s (environment 4 s) with this one.
          pool: 'vmThreads',
          setupFiles: ['web/src/test-setup.ts'],
          // Each wait of Testing Library may take 5 s on a loaded machine (test-setup.ts); a test's own limit must
          // be above one wait, or a test whose waits are merely slow (CI, every file at once) fails as « timed
          // out » instead of passing, and a wait that really fails reports the test's limit instead of what was
          // waited for. A chapter test of 0.3 s alone once took over 5 s in CI.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          // A test that runs Vite's bundler: Rolldown's native binding checks the plugins it is given against its own
          // realm's classes, which a VM context's objects are not.
          name: 'web-build',
          include: WEB_BUILD_FILES,
          environment: 'node',
        },
      },
    ],
  },
});
