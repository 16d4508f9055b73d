import type { Parameters, ParametersParameter } from '@medplum/fhirtypes';
import { errors } from '../fhir/fhirError';
import type { RepositorySession } from '../fhir/repository';
import { parseSearchRequest, type QueryParams } from '../search/searchRequest';
import { queryValue } from './operationQuery';

/** The profiles `profile` may name: the document is the International Patient Summary or nothing. */
const ipsProfiles = new Set([
  'http://hl7.org/fhir/uv/ips/StructureDefinition/Bundle-uv-ips',
  'http://hl7.org/fhir/uv/ips/StructureDefinition/Composition-uv-ips',
]);
const known = new Set(['identifier', 'profile']);
const ignored = new Set(['_format', '_pretty']);

/**
 * The `$summary` parameters of the query and, for a POST, of a Parameters body: `identifier`
 * (`system|value`, to pick the patient without its id) and `profile` (only the IPS's). Any other
 * parameter is refused rather than silently ignored.
 */
export function summaryParameters(query: QueryParams, body: unknown): { identifier?: string } {
  for (const name of Object.keys(query)) {
    if (!known.has(name) && !ignored.has(name)) throw errors.invalid(`Unknown parameter "${name}" of $summary`, name);
  }
  const parameters = body === undefined || body === null || body === '' ? [] : parametersOf(body);
  for (const parameter of parameters) {
    if (!known.has(parameter.name)) {
      throw errors.invalid(`Unknown parameter "${parameter.name}" of $summary`, parameter.name);
    }
  }
  const fromBody = (name: string) => parameters.find((parameter) => parameter.name === name);
  const profileParameter = fromBody('profile');
  const profile =
    queryValue(query, 'profile') ??
    profileParameter?.valueCanonical ??
    profileParameter?.valueUri ??
    profileParameter?.valueString;
  if (profile !== undefined && !ipsProfiles.has(profile.split('|')[0])) {
    throw errors.invalid(
      `Unsupported profile "${profile}": this server makes the International Patient Summary (${[...ipsProfiles][0]})`,
      'profile',
    );
  }
  const identifierParameter = fromBody('identifier');
  const fromIdentifier = identifierParameter?.valueIdentifier
    ? `${identifierParameter.valueIdentifier.system ?? ''}|${identifierParameter.valueIdentifier.value ?? ''}`
    : undefined;
  const identifier = queryValue(query, 'identifier') ?? identifierParameter?.valueString ?? fromIdentifier;
  return identifier === undefined ? {} : { identifier };
}

function parametersOf(body: unknown): ParametersParameter[] {
  const parameters = body as Parameters;
  if (typeof body !== 'object' || parameters.resourceType !== 'Parameters') {
    throw errors.invalid('The body of a POST to $summary must be a Parameters resource (or empty)');
  }
  return (parameters.parameter ?? []).filter(
    (parameter): parameter is ParametersParameter => typeof parameter?.name === 'string',
  );
}

/**
 * The id of the one patient with this identifier that the caller may see: 404 when there is
 * none, 400 when there are several (a summary of the wrong patient is worse than none).
 */
export async function patientIdByIdentifier(session: RepositorySession, identifier: string): Promise<string> {
  const request = parseSearchRequest('Patient', { identifier, _count: '2', _elements: 'id' }, session.registry);
  const found = (await session.search(request)).resources;
  if (found.length === 0) throw errors.notFoundWith(`No Patient has the identifier "${identifier}"`);
  if (found.length > 1) {
    throw errors.invalid(
      `Several patients have the identifier "${identifier}": ask for the summary of one by its id (Patient/{id}/$summary)`,
      'identifier',
    );
  }
  return found[0].id as string;
}
