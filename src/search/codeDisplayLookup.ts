import type { Parameters } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import type { SystemCode } from './unnamedCodes';

/**
 * What the stored code system calls one code: `CodeSystem/$lookup?system=…&code=…`, a GET the
 * client batches with the other lookups of the same moment and caches by its URL. A code the
 * server does not know (SNOMED CT is not stored) or a failed lookup names nothing (null): the code
 * is shown as it is, and the answer is kept like any other so it is not asked again.
 */
export async function lookUpCodeDisplay(
  client: FhirClient,
  { system, code }: SystemCode,
  signal?: AbortSignal,
): Promise<string | null> {
  // The server answers a lookup without a system or code with an error, never with a name.
  if (!isLookupable({ system, code })) return null;
  const url = client.fhirUrl('CodeSystem', '$lookup');
  url.search = new URLSearchParams({ system, code }).toString();
  try {
    const parameters = await client.get<Parameters>(url, { signal });
    return parameters.parameter?.find((parameter) => parameter.name === 'display')?.valueString?.trim() || null;
  } catch (error) {
    // A cancelled lookup is no answer: TanStack Query drops it and asks again when it is wanted.
    if (signal?.aborted) throw error;
    return null;
  }
}

/**
 * Whether a coding can be looked up at all: a system and a code, neither blank. A FHIR code has no
 * leading or trailing whitespace (data-and-client-layer spec §5), so a blank one names nothing.
 */
export function isLookupable(coding: { system?: string; code?: string }): coding is SystemCode {
  return !!coding.system?.trim() && !!coding.code?.trim();
}
