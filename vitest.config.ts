import { defineConfig } from 'vitest/config';

// A test's timeout guards against hangs; it is not a speed budget (those are in `npm run bench`).
// On a shared 2-core machine an embedded database start or a big component render can take
// longer than vitest's 5 s default while other work runs.
const hangGuardMs = 30_000;
// Test files share their worker and its module cache instead of a fresh process each: on this
// 2-core machine the fresh processes cost more than the tests (vitest run 568 -> 350 s). It
// relies on every test restoring what it changes (timers, globals, TZ) in afterEach; the suite
// passes in shuffled file orders (--sequence.shuffle.files), which is how that was checked.
const isolate = false;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            '{config,data-provider,schema-engine,src,custom-screens,scripts}/**/*.test.ts',
            'server/**/*.unit.test.ts',
            'tests/bench/**/*.test.ts',
          ],
          testTimeout: hangGuardMs,
          // Several open an embedded database in beforeAll, which took over vitest's 10 s hook
          // default in a clean-clone CI run while the machine was busy.
          hookTimeout: hangGuardMs,
          isolate,
        },
      },
      {
        test: {
          // React components rendered into happy-dom with Testing Library.
          name: 'components',
          include: ['{data-provider,schema-engine,src,custom-screens}/**/*.test.tsx'],
          environment: 'happy-dom',
          setupFiles: ['tests/setup/componentSetup.ts'],
          testTimeout: hangGuardMs,
          isolate,
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
          isolate,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
