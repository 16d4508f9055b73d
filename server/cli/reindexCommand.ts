import { parseArgs } from 'node:util';
import type { AsyncJob } from '@medplum/fhirtypes';
import { cliToken } from './cliCredentials';

const usage = `Usage: npm run reindex -- [--server URL] [ResourceType ...]

Recomputes the search index of a running Hearth EMR server (all types when none is named), for
example after adding or changing a SearchParameter. Prints progress until the job completes.
Needs a super admin: HEARTH_TOKEN, or HEARTH_EMAIL and HEARTH_PASSWORD (default: the first-run
super admin, ADMIN_PASSWORD or DATA_DIR/admin-password.txt).`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { server: { type: 'string' }, help: { type: 'boolean', default: false } },
  });
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const server = values.server ?? process.env.BASE_URL ?? 'http://localhost:8103/';
  const base = new URL('fhir/R4/', server.endsWith('/') ? server : `${server}/`).toString();
  const query = positionals.length > 0 ? `?resourceType=${encodeURIComponent(positionals.join(','))}` : '';
  const authorization = `Bearer ${await cliToken(server.endsWith('/') ? server : `${server}/`)}`;
  const started = await fetch(`${base}$reindex${query}`, {
    method: 'POST',
    headers: { prefer: 'respond-async', authorization },
  });
  if (started.status !== 202) {
    console.error(`Reindex refused: HTTP ${started.status} ${await started.text()}`);
    return 1;
  }
  const statusUrl = started.headers.get('content-location') as string;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const job = (await (await fetch(statusUrl, { headers: { authorization } })).json()) as AsyncJob;
    const count = job.output?.parameter?.find((p) => p.name === 'count')?.valueInteger ?? 0;
    const type = job.output?.parameter?.find((p) => p.name === 'resourceType')?.valueString ?? '';
    if (job.status === 'completed') {
      console.log(`Reindexed ${count} resources.`);
      return 0;
    }
    if (job.status === 'error') {
      console.error(
        `Reindex failed: ${job.output?.parameter?.find((p) => p.name === 'error')?.valueString ?? 'unknown error'}`,
      );
      return 1;
    }
    console.log(`  ${job.status}: ${type} ${count}`);
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`Reindex failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
