import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { generateValidatorCode } from '../../server/validation/standaloneValidators';
import { useValidatorCode, validateStructure } from '../../server/validation/structureValidator';

/**
 * What a process pays for its first structure validation (issue 20): compiling the validator with
 * ajv (before) against evaluating the standalone code kept in the database (now), and what
 * generating that code costs on the first start of a definitions version.
 *
 *   npx tsx tests/bench/structureValidatorBenchmark.ts
 *
 * Each first validation runs in a fresh `node --import tsx` process (a warm process would measure
 * nothing); the figures are time and RSS growth of that one validation of a `Login`, which is what
 * the first sign-in after a restart validates, then of a `Patient`.
 */

const root = join(fileURLToPath(import.meta.url), '..', '..', '..');
const login = {
  resourceType: 'Login',
  user: { reference: 'User/1' },
  authMethod: 'password',
  authTime: '2026-01-01T00:00:00Z',
};

interface FirstValidation {
  loginMs: number;
  loginRssMb: number;
  patientMs: number;
}

/** Runs in the child: `--first compiled` or `--first standalone <gzip file>`. */
function firstValidation(mode: string, codeFile?: string): FirstValidation {
  if (mode === 'standalone' && codeFile) {
    const compressed = readFileSync(codeFile);
    useValidatorCode(() => gunzipSync(compressed).toString('utf8'));
  }
  const rss = process.memoryUsage().rss;
  let started = performance.now();
  validateStructure(login);
  const loginMs = performance.now() - started;
  const loginRssMb = (process.memoryUsage().rss - rss) / 1e6;
  started = performance.now();
  validateStructure({ resourceType: 'Patient' });
  return { loginMs, loginRssMb, patientMs: performance.now() - started };
}

function inChild(mode: string, codeFile?: string): FirstValidation {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--first', mode, ...(codeFile ? [codeFile] : [])],
    { cwd: root, encoding: 'utf8' },
  );
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as FirstValidation;
}

async function main(): Promise<void> {
  if (process.argv[2] === '--first') {
    console.log(JSON.stringify(firstValidation(process.argv[3], process.argv[4])));
    return;
  }
  const started = performance.now();
  const code = await generateValidatorCode();
  const generateMs = performance.now() - started;
  const compressed = gzipSync(code);
  const dir = mkdtempSync(join(tmpdir(), 'hearth-validator-bench-'));
  const codeFile = join(dir, 'validators.js.gz');
  writeFileSync(codeFile, compressed);
  try {
    console.log(
      `generated in a worker: ${(generateMs / 1000).toFixed(1)} s; ${(code.length / 1e6).toFixed(1)} MB of code, ${(compressed.length / 1e6).toFixed(2)} MB gzip-compressed`,
    );
    for (let run = 1; run <= 3; run++) {
      for (const mode of ['compiled', 'standalone']) {
        const r = inChild(mode, mode === 'standalone' ? codeFile : undefined);
        console.log(
          `run ${run} ${mode.padEnd(10)} first Login validation ${r.loginMs.toFixed(0).padStart(5)} ms, RSS +${r.loginRssMb.toFixed(0)} MB; then first Patient ${r.patientMs.toFixed(1)} ms`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
