import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export interface BenchPostgres {
  url?: string;
  stop?: () => void;
}

/** Native PostgreSQL for the benchmark: HEARTH_BENCH_DATABASE_URL, or a throwaway local server. */
export function nativeDatabaseUrl(root: string): BenchPostgres {
  if (process.env.HEARTH_BENCH_DATABASE_URL) return { url: process.env.HEARTH_BENCH_DATABASE_URL };
  try {
    const out = execFileSync('bash', [join(root, 'scripts', 'startTestPostgres.sh')], {
      encoding: 'utf8',
    });
    const url = /HEARTH_TEST_DATABASE_URL=(\S+)/.exec(out)?.[1];
    const dir = /HEARTH_TEST_PG_DIR=(\S+)/.exec(out)?.[1];
    return {
      url,
      stop: () => {
        if (dir)
          execFileSync('bash', [
            '-c',
            `runuser -u postgres -- $(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)/pg_ctl -D ${dir}/data stop -m fast || true; rm -rf ${dir}`,
          ]);
      },
    };
  } catch (error) {
    console.log(`No native PostgreSQL for the benchmark: ${(error as Error).message.split('\n')[0]}`);
    return {};
  }
}
