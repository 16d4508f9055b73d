import type { Coding, ValueSet } from '@medplum/fhirtypes';

/** The code system of a ValueSet that draws all its codes from exactly one (none when it includes other ValueSets). */
export function singleCodeSystem(valueSet: ValueSet | undefined): string | undefined {
  const includes = valueSet?.compose?.include ?? [];
  if (includes.length === 0 || includes.some((include) => !include.system || include.valueSet?.length))
    return undefined;
  const systems = new Set(includes.map((include) => include.system));
  return systems.size === 1 ? includes[0].system : undefined;
}

/**
 * A typed code as a Coding: `system|code` gives both (`http://dicom.nema.org/resources/ontology/DCM|CT`);
 * a bare code takes `system` (the binding's one code system, or the one entered beside it).
 */
export function typedCoding(text: string, system?: string): Coding | undefined {
  const typed = text.trim();
  const bar = typed.indexOf('|');
  const code = (bar < 0 ? typed : typed.slice(bar + 1)).trim();
  const typedSystem = bar < 0 ? '' : typed.slice(0, bar).trim();
  if (!code) return undefined;
  const chosen = typedSystem || system;
  return chosen ? { system: chosen, code } : { code };
}
