import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { definitionsVersion } from '../definitions/definitionFiles';
import type { SqlExecutor } from '../storage/database';
import { readState, writeState } from '../storage/serverState';
import { generateCompressedValidatorCode } from './standaloneValidators';
import { structureSchemaRevision } from './structureSchema';
import { useValidatorCode } from './structureValidator';

interface StoredValidatorCode {
  version: string;
  /** The module's source, gzip-compressed, base64 (9.9 MB of source → ~0.9 MB). */
  gzipBase64: string;
}

const stateKey = 'structure-validators';

const ajvVersion = (createRequire(import.meta.url)('ajv/package.json') as { version: string }).version;

/**
 * What the kept code was generated from: a new definitions package, another ajv or a change of
 * the structure schema or its options (structureSchemaRevision) generates it again.
 */
export const validatorCodeVersion = `definitions ${definitionsVersion}, ajv ${ajvVersion}, schema r${structureSchemaRevision}`;

/**
 * The structure validators as ajv standalone code, generated once per `validatorCodeVersion` and
 * kept in the database (issue 20: compiling a resource type's validator cost its first write after
 * every start ~0.1–4 s of CPU, and the first sign-in after a restart paid for `Login`).
 *
 * The code is executed by the server, so where it is kept matters: `server_state` is written only
 * by the server's own code (this function, the definition index, signing keys, the callers
 * epoch). No FHIR interaction, bot or project setting reads or writes that table — it is not a
 * resource type, and bots run in QuickJS without database access. Whoever can write the database
 * directly could change everything else too (signing keys, access policies), so this adds no new
 * way in.
 */
export async function loadStructureValidators(db: SqlExecutor): Promise<'cached' | 'generated'> {
  const stored = await readState<StoredValidatorCode>(db, stateKey);
  if (stored?.version === validatorCodeVersion && typeof stored.gzipBase64 === 'string') {
    useCompressed(Buffer.from(stored.gzipBase64, 'base64'));
    return 'cached';
  }
  const compressed = await generateCompressedValidatorCode();
  await writeState(db, stateKey, {
    version: validatorCodeVersion,
    gzipBase64: compressed.toString('base64'),
  } satisfies StoredValidatorCode);
  useCompressed(compressed);
  return 'generated';
}

/**
 * Compressed in the database and in memory until the first validation: a large value costs the
 * embedded database (PGlite) memory that it does not give back, and the process holds 0.7 MB
 * instead of a 10 MB string while it has not written anything.
 */
function useCompressed(compressed: Buffer): void {
  useValidatorCode(() => gunzipSync(compressed).toString('utf8'));
}
