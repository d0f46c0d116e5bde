import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        // The service worker's build settings (vite.config.ts `define`), at their defaults.
        define: { __PAPERDESK_STALE_AFTER_DAYS__: '7', __PAPERDESK_ARTICLES_STALE_AFTER_DAYS__: '30' },
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          // Three files at a time even on two cores: a server test spends much of its time waiting on its
          // station's database and sockets (vitest's default would be one worker there).
          maxWorkers: 3,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.e2e.test.ts'],
          environment: 'node',
          // Two files at a time: each starts its own station and browser, and an end-to-end test mostly
          // waits (on the page settling, on the service worker, on timeouts it provokes): one file alone
          // keeps less than half a core busy.
          maxWorkers: 2,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
