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
          // *.native.test.ts need a native PostgreSQL (several server processes on one database).
          exclude: [
            'server/**/*.unit.test.ts',
            ...(process.env.HEARTH_TEST_DATABASE_URL ? [] : ['**/*.native.test.ts']),
          ],
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
