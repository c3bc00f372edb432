import path from 'node:path';
import { defineConfig } from 'vitest/config';

const shared = path.resolve(import.meta.dirname, 'packages/shared/src/index.ts');

/** Unit and integration tests of every workspace except the browser suite (e2e/vitest.config.ts). */
export default defineConfig({
  resolve: { alias: { '@switchyard/shared': shared } },
  test: {
    projects: [
      { extends: true, test: { name: 'shared', include: ['packages/shared/src/**/*.test.ts'] } },
      {
        extends: true,
        test: { name: 'server', include: ['server/src/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 60_000 },
      },
      { extends: true, test: { name: 'web', include: ['web/src/**/*.test.ts'], environment: 'node' } },
    ],
  },
});
