import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            '{config,data-provider,schema-engine,src,custom-screens}/**/*.test.ts',
            'server/**/*.unit.test.ts',
            'tests/bench/**/*.test.ts',
          ],
        },
      },
      {
        test: {
          // React components rendered into happy-dom with Testing Library.
          name: 'components',
          include: ['{data-provider,schema-engine,src,custom-screens}/**/*.test.tsx'],
          environment: 'happy-dom',
          setupFiles: ['tests/setup/componentSetup.ts'],
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
