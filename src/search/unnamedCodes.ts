import type { Resource } from '@medplum/fhirtypes';
import { valuesAtPath } from '../../schema-engine';
import { isLookupable } from './codeDisplayLookup';
import { codeKey, unnamedCodings } from './searchColumns';

/** At most this many distinct codes are looked up per page (one `$lookup` each, sent as one batch). */
export const LOOKED_UP_CODES_PER_PAGE = 50;

export interface SystemCode {
  system: string;
  code: string;
}

/**
 * The distinct system-and-code pairs of a page's coded columns that nothing names (no text, no
 * display): imported Claims say `institutional` where the code system says "Institutional".
 */
export function unnamedCodes(
  resources: readonly Resource[],
  codedPaths: readonly { path: string; type: string }[],
): SystemCode[] {
  const found = new Map<string, SystemCode>();
  for (const resource of resources) {
    for (const { path, type } of codedPaths) {
      for (const value of valuesAtPath(resource, path)) {
        if (typeof value !== 'object' || value === null) continue;
        for (const { system, code } of unnamedCodings(value, type)) {
          const coding = { system, code };
          if (!isLookupable(coding)) continue;
          found.set(codeKey(coding.system, coding.code), coding);
          if (found.size >= LOOKED_UP_CODES_PER_PAGE) return [...found.values()];
        }
      }
    }
  }
  return [...found.values()];
}
