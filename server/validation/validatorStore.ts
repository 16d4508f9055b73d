import { createRequire } from 'node:module';
import { definitionsVersion } from '../definitions/definitionFiles';
import type { SqlExecutor } from '../storage/database';
import { readState, writeState } from '../storage/serverState';
import { generateValidatorCode } from './standaloneValidators';
import { structureSchemaRevision } from './structureSchema';
import { useValidatorCode } from './structureValidator';

interface StoredValidatorCode {
  version: string;
  code: string;
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
  if (stored?.version === validatorCodeVersion && typeof stored.code === 'string') {
    useValidatorCode(stored.code);
    return 'cached';
  }
  const code = await generateValidatorCode();
  await writeState(db, stateKey, { version: validatorCodeVersion, code } satisfies StoredValidatorCode);
  useValidatorCode(code);
  return 'generated';
}
