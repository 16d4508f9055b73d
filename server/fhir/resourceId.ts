import { errors } from './fhirError';

/** The FHIR R4 id datatype: 1 to 64 of letters, digits, `-` and `.`. */
const fhirIdPattern = /^[A-Za-z0-9\-.]{1,64}$/;

/**
 * A FHIR id that is also safe as a file name: ids name Binary content folders on disk, so an id
 * may not start with `.` (that refuses `.`, `..` and the `.incoming` staging folder).
 */
export function isResourceId(id: unknown): id is string {
  return typeof id === 'string' && fhirIdPattern.test(id) && !id.startsWith('.');
}

/** Throws the 400 a client gets for an id that is not a (safe) FHIR id. */
export function checkResourceId(id: unknown, expression = 'id'): asserts id is string {
  if (isResourceId(id)) return;
  const shown = typeof id === 'string' ? JSON.stringify(id.length > 80 ? `${id.slice(0, 80)}…` : id) : String(id);
  throw errors.invalid(`Invalid id ${shown}: 1 to 64 letters, digits, "-" and ".", not starting with "."`, expression);
}
