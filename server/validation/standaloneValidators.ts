import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { Worker } from 'node:worker_threads';
import type { ValidateFunction } from 'ajv';
import draft6MetaSchema from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' };
import { structureAjvOptions, structureSchema, structureSchemaRef } from './structureSchema';
import { validatorCodeWorkerSource } from './validatorCodeWorkerSource';

const require = createRequire(import.meta.url);

/**
 * ajv's standalone code of every resource type's validator, as one CommonJS module whose exports
 * are named by resource type (`exports.Patient = validate123`). One module rather than one per type:
 * through `contained` (ResourceList) every resource type's validator calls every other one, so a
 * module per type would hold all of them again; in one module each datatype function is there once.
 * Generated in a worker thread (see validatorCodeWorkerSource.ts); gzip-compressed.
 */
export function generateCompressedValidatorCode(): Promise<Buffer> {
  const schema = structureSchema();
  const types = schema.definitions.ResourceList.properties?.resourceType.enum as string[];
  const refs = Object.fromEntries(types.map((type) => [type, structureSchemaRef(type)]));
  const worker = new Worker(validatorCodeWorkerSource, {
    eval: true,
    workerData: {
      ajv: require.resolve('ajv'),
      standalone: require.resolve('ajv/dist/standalone'),
      metaSchema: draft6MetaSchema,
      options: structureAjvOptions,
      schema,
      refs,
    },
  });
  return new Promise((resolve, reject) => {
    let settled = false;
    worker.once('message', (message: { gzip?: Uint8Array; error?: string }) => {
      settled = true;
      if (message.gzip instanceof Uint8Array) {
        resolve(Buffer.from(message.gzip.buffer, message.gzip.byteOffset, message.gzip.byteLength));
      } else reject(new Error(`Generating the structure validators failed: ${message.error ?? 'no code'}`));
      void worker.terminate();
    });
    worker.once('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`The structure validator worker exited with code ${code} before answering`));
    });
  });
}

/** The modules ajv's standalone code may require: its runtime helpers, nothing else. */
const runtimeModules = new Set([
  'ajv/dist/runtime/equal',
  'ajv/dist/runtime/ucs2length',
  'ajv/dist/runtime/uri',
  'ajv/dist/runtime/validation_error',
]);

/** The module's source (`generateCompressedValidatorCode`, uncompressed). */
export async function generateValidatorCode(): Promise<string> {
  return gunzipSync(await generateCompressedValidatorCode()).toString('utf8');
}

/**
 * Runs the code of `generateValidatorCode` and returns its validators by resource type. The code
 * must come from `generateValidatorCode` of this server (validatorStore.ts keeps it where only the
 * server writes): it runs with the server's own rights. Its `require` reaches ajv's runtime helpers
 * only, so a generated module that asked for anything else fails here instead of loading it.
 */
export function evaluateValidatorCode(code: string): Map<string, ValidateFunction> {
  const exports: Record<string, ValidateFunction> = {};
  const requireRuntime = (id: string): unknown => {
    if (!runtimeModules.has(id)) throw new Error(`Structure validator code may not require "${id}"`);
    return require(id);
  };
  // The standalone code is a CommonJS module body; this is how it is evaluated without a file.
  const moduleBody = new Function('exports', 'require', code) as (e: object, r: (id: string) => unknown) => void;
  moduleBody(exports, requireRuntime);
  return new Map(Object.entries(exports));
}
