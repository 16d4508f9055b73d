import { useMemo } from 'react';
import type { CodeableConcept, Coding } from '@medplum/fhirtypes';
import { codeKey, lookedUpCoding, unnamedCodings, type LookedUpCoding } from '../search/searchColumns';
import type { SystemCode } from '../search/unnamedCodes';
import { useCodeDisplays } from '../search/useCodeDisplays';

/**
 * What the code system calls a Coding or CodeableConcept that nothing in the record names (an
 * imported Claim's type says `institutional`; the code system says "Institutional"). Looked up
 * through the console list's hook and cache, so a code the list named is not asked again; undefined
 * while it loads, when the record names the value itself, and when the code system is unknown.
 */
export function useLookedUpCoding(
  value: Coding | CodeableConcept,
  type: 'Coding' | 'CodeableConcept',
): LookedUpCoding | undefined {
  const codes = useMemo(() => {
    const found = new Map<string, SystemCode>();
    for (const { system, code } of unnamedCodings(value, type)) {
      if (system && code) found.set(codeKey(system, code), { system, code });
    }
    return [...found.values()];
  }, [value, type]);
  const displays = useCodeDisplays(codes);
  return lookedUpCoding(value, type, displays);
}
