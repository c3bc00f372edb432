import { defineConfig } from 'vitest/config';

/** Browser tests: a real server (built) on a fresh SQLite file, driven through Debian chromium. */
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['tests/**/*.e2e.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    fileParallelism: false,
  },
});
