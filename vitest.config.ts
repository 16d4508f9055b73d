import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            '{config,data-provider,schema-engine,src,custom-screens}/**/*.test.{ts,tsx}',
            'server/**/*.unit.test.ts',
            'tests/bench/**/*.test.ts',
          ],
        },
      },
      {
        test: {
          name: 'server',
          include: ['server/**/*.test.ts', 'tests/integration/**/*.test.ts'],
          exclude: ['server/**/*.unit.test.ts'],
          // One real server (HTTP + database) for the whole run; see tests/integration/serverSetup.ts.
          globalSetup: ['tests/integration/serverSetup.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
