import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { planFile, type ImportProblem, type ImportRequest } from '../import/importPlan';
import { runImport } from '../import/importRunner';
import { cliToken } from './cliCredentials';

const usage = `Usage: npm run import -- [options] <files or folders>

Posts FHIR Bundles (.json: transaction, batch or collection) and NDJSON files (.ndjson) to a
Hearth EMR server.

Options:
  --server URL        server base URL (default: $BASE_URL or http://localhost:8103/)
  --concurrency N     requests in flight at once (default 2)
  --chunk N           resources per transaction for NDJSON and collections (default 200)
  --help              this text

Credentials (never on the command line): HEARTH_TOKEN, or HEARTH_EMAIL and HEARTH_PASSWORD
(default: the super admin, ADMIN_PASSWORD or DATA_DIR/admin-password.txt); HEARTH_PROJECT picks
the project when the account has several.`;

function collectFiles(paths: string[]): string[] {
  const files: string[] = [];
  for (const path of paths) {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) throw new Error(`No such file or folder: ${path}`);
    if (stat.isDirectory()) {
      const children = readdirSync(path)
        .filter((name) => /\.(json|ndjson)$/i.test(name))
        .sort()
        .map((name) => join(path, name));
      files.push(...children);
    } else {
      files.push(path);
    }
  }
  return files;
}

/** One clear message when the server is not there, instead of one failure per file. */
async function checkServer(fhirBase: string): Promise<void> {
  try {
    const response = await fetch(`${fhirBase}metadata`, { headers: { accept: 'application/fhir+json' } });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
  } catch (error) {
    throw new Error(
      `Cannot reach a FHIR server at ${fhirBase} (${(error as Error).message}). Is it running (npm start)?`,
    );
  }
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      server: { type: 'string' },
      concurrency: { type: 'string', default: '2' },
      chunk: { type: 'string', default: '200' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || positionals.length === 0) {
    console.log(usage);
    return values.help ? 0 : 2;
  }
  const concurrency = Number(values.concurrency);
  const chunk = Number(values.chunk);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('--concurrency must be a whole number ≥ 1');
  if (!Number.isInteger(chunk) || chunk < 1) throw new Error('--chunk must be a whole number ≥ 1');
  const server = values.server ?? process.env.BASE_URL ?? 'http://localhost:8103/';
  const fhirBase = new URL('fhir/R4/', server.endsWith('/') ? server : `${server}/`).toString();

  await checkServer(fhirBase);
  const token = await cliToken(server.endsWith('/') ? server : `${server}/`);
  const files = collectFiles(positionals);
  const requests: ImportRequest[] = [];
  const problems: ImportProblem[] = [];
  let total = 0;
  for (const file of files) {
    const plan = planFile(file, readFileSync(file, 'utf8'), chunk);
    requests.push(...plan.requests);
    problems.push(...plan.problems);
    total += plan.resourceCount;
  }
  console.log(`Importing ${total} resources from ${files.length} files into ${fhirBase}`);

  const bar = new cliProgress.SingleBar(
    {
      format: '  {bar} {percentage}% | {value}/{total} resources | {failed} failed',
      hideCursor: true,
      noTTYOutput: true,
      notTTYSchedule: 2000,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { failed: 0 });
  const result = await runImport(requests, {
    fhirBase,
    concurrency,
    headers: { authorization: `Bearer ${token}` },
    onProgress: (progress) => bar.update(progress.sent, { failed: progress.failed }),
  });
  bar.stop();

  problems.push(...result.problems);
  const rate = result.seconds > 0 ? Math.round(result.imported / result.seconds) : result.imported;
  console.log(
    `Imported ${result.imported} of ${total} resources in ${result.seconds.toFixed(1)} s (${rate} resources/s)`,
  );
  if (problems.length > 0) {
    console.log(`${problems.length} problem(s):`);
    for (const problem of problems.slice(0, 100)) console.log(`  ${problem.file} ${problem.where}: ${problem.message}`);
    if (problems.length > 100) console.log(`  … and ${problems.length - 100} more`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`Import failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
