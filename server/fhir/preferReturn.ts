import type { Bundle, BundleEntry, OperationOutcome } from '@medplum/fhirtypes';
import type { OperationResult } from './fhirOperations';

/** What a client asks a write to answer (`Prefer: return=…`, FHIR R4 RESTful API §3.1.0.4.1). */
export type ReturnPreference = 'minimal' | 'representation' | 'OperationOutcome';

/** The interactions the preference applies to, for the text of the outcome. */
export type WriteInteraction = 'create' | 'update' | 'patch';

/**
 * The `return` preference of a `Prefer` header (RFC 7240: comma-separated preferences, each with
 * `;` parameters; names and these values compared without case), `representation` when absent
 * or unknown — an unknown preference is ignored, never an error (RFC 7240 §2).
 */
export function returnPreferenceOf(prefer: string | undefined): ReturnPreference {
  if (!prefer) return 'representation';
  for (const preference of prefer.split(',')) {
    const [name, value] = preference.split(';')[0].split('=');
    if (name?.trim().toLowerCase() !== 'return' || value === undefined) continue;
    const wanted = value
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    if (wanted === 'minimal') return 'minimal';
    if (wanted === 'operationoutcome') return 'OperationOutcome';
    if (wanted === 'representation') return 'representation';
  }
  return 'representation';
}

/** An informational OperationOutcome saying what a successful write did. */
export function writeOutcome(interaction: WriteInteraction, result: OperationResult): OperationOutcome {
  const resource = result.resource;
  const name = resource ? `${resource.resourceType}/${resource.id}` : 'the resource';
  const version = resource?.meta?.versionId ? `, version ${resource.meta.versionId}` : '';
  let text: string;
  if (result.status === 201) text = `Created ${name}${version}`;
  // A create answering 200 found its If-None-Exist match and wrote nothing.
  else if (interaction === 'create') text = `${name} matched If-None-Exist; nothing was created`;
  else text = `${interaction === 'patch' ? 'Patched' : 'Updated'} ${name}${version}`;
  return {
    resourceType: 'OperationOutcome',
    issue: [{ severity: 'information', code: 'informational', details: { text } }],
  };
}

const writeMethods = new Set(['POST', 'PUT', 'PATCH']);

/** A create, update or patch entry: not a read, a delete, `_search` or an operation (`$…`) sent by POST. */
function writeInteractionOf(entry: BundleEntry | undefined): WriteInteraction | undefined {
  const method = entry?.request?.method?.toUpperCase();
  const url = entry?.request?.url ?? '';
  if (!method || !writeMethods.has(method) || url.includes('$') || /\/_search(\?|$)/.test(url)) return undefined;
  return method === 'POST' ? 'create' : method === 'PUT' ? 'update' : 'patch';
}

/**
 * A batch or transaction answer under the preference: the entries of writes (POST, PUT, PATCH
 * requests other than `_search` and operations, matched by position: an answer has one entry per request entry, in order) lose their
 * resource under `minimal` and `OperationOutcome`, and carry an informational `response.outcome`
 * under `OperationOutcome`. Reads and searches keep their answer: the preference is about what a
 * write sends back, and a GET entry's resource is the point of asking.
 */
export function bundleForPreference(
  answer: Bundle,
  requests: readonly BundleEntry[],
  preference: ReturnPreference,
): Bundle {
  if (preference === 'representation') return answer;
  const entry = (answer.entry ?? []).map((responseEntry, index) => {
    const interaction = writeInteractionOf(requests[index]);
    if (!interaction) return responseEntry;
    const { resource, ...rest } = responseEntry;
    if (preference === 'minimal' || !rest.response || rest.response.outcome) return rest;
    const outcome = writeOutcome(interaction, { status: Number(rest.response.status.split(' ')[0]), resource });
    return { ...rest, response: { ...rest.response, outcome } };
  });
  return { ...answer, entry };
}
