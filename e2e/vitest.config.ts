import { defineConfig } from 'vitest/config';

/** Browser tests: a real server (built) on a fresh SQLite file, driven through Debian chromium. */
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['tests/**/*.e2e.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    // Two files at a time: each starts its own server (a kernel-picked port, its own SQLite file and temp folder) and
    // its own contexts in the run's one chromium; on 2 cores the pages' work and the servers' waits overlap.
    maxWorkers: 2,
    globalSetup: ['support/shared-browser.ts'],
    setupFiles: ['support/no-csp-violations.ts'],
    // What a page shows after a reload or a save waits on the server's answers: on a loaded machine they take longer
    // than expect.poll's default second (a settings card read back empty for it once and failed the run).
    expect: { poll: { timeout: 10_000 } },
  },
});
