import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

const shared = path.resolve(import.meta.dirname, 'packages/shared/src/index.ts');
const START_TEST = 'server/src/deploy/start.test.ts';

/** Unit and integration tests of every workspace except the browser suite (e2e/vitest.config.ts). */
export default defineConfig({
  resolve: { alias: { '@switchyard/shared': shared } },
  test: {
    projects: [
      { extends: true, test: { name: 'shared', include: ['packages/shared/src/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'server', include: ['server/src/**/*.test.ts'], exclude: [...configDefaults.exclude, START_TEST], testTimeout: 30_000, hookTimeout: 60_000,
          // Lists what was skipped for want of PostgreSQL, MySQL or Redis when the run ends (fails instead in CI).
          globalSetup: ['server/src/test/service-skips.ts'],
        },
      },
      // Times `npm start`: `npm run test:unit` runs it on its own before the rest, so no other suite shares the cores.
      { extends: true, test: { name: 'start', include: [START_TEST], testTimeout: 30_000, hookTimeout: 60_000 } },
      { extends: true, test: { name: 'web', include: ['web/src/**/*.test.ts'], environment: 'node' } },
    ],
  },
});
