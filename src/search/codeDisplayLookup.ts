import type { Parameters } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { codeKey, type CodeDisplays } from './searchColumns';
import type { SystemCode } from './unnamedCodes';

/**
 * What the stored code systems call `codes`: one `CodeSystem/$lookup` each, which the client's
 * batching sends together. A code the server does not know (SNOMED CT is not stored) or a failed
 * lookup names nothing: the code is shown as it is.
 */
export async function lookUpCodeDisplays(
  client: FhirClient,
  codes: readonly SystemCode[],
  signal?: AbortSignal,
): Promise<CodeDisplays> {
  const answers = await Promise.allSettled(
    codes.map(async ({ system, code }) => {
      const url = client.fhirUrl('CodeSystem', '$lookup');
      url.search = new URLSearchParams({ system, code }).toString();
      const parameters = await client.get<Parameters>(url, { signal });
      const display = parameters.parameter?.find((parameter) => parameter.name === 'display')?.valueString?.trim();
      return [codeKey(system, code), display] as const;
    }),
  );
  const displays = new Map<string, string>();
  for (const answer of answers) {
    if (answer.status === 'fulfilled' && answer.value[1]) displays.set(answer.value[0], answer.value[1]);
  }
  return displays;
}
