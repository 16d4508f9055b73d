/**
 * The program of the worker thread that generates the structure validators' standalone code, as
 * JavaScript source (started with `eval: true` like the bot workers, so it runs the same under
 * `node --import tsx`, vitest and a build).
 *
 * Compiling every resource type costs seconds of CPU and ~150 MB of heap; in a worker neither
 * blocks the server's event loop, and the memory goes back when the worker exits.
 *
 * workerData: `{ ajv, standalone, metaSchema, options, schema, refs }` — the resolved paths of
 * ajv and its standalone module, the draft-06 meta schema, the ajv options, the structure schema
 * and the export name → schema key of each resource type. Posts `{ gzip }` (the module's source,
 * gzip-compressed: 0.7 MB cross to the server's heap instead of a 10 MB string) or `{ error }`.
 */
export const validatorCodeWorkerSource = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { gzipSync } = require('node:zlib');
try {
  const { Ajv } = require(workerData.ajv);
  const standaloneCode = require(workerData.standalone).default;
  const ajv = new Ajv({ ...workerData.options, code: { source: true } });
  ajv.addMetaSchema(workerData.metaSchema);
  ajv.addSchema(workerData.schema, 'fhir');
  parentPort.postMessage({ gzip: gzipSync(standaloneCode(ajv, workerData.refs)) });
} catch (error) {
  parentPort.postMessage({ error: error instanceof Error ? error.stack || error.message : String(error) });
}
`;
