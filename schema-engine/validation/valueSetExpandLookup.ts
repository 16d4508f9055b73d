import type { ValueSet, ValueSetExpansionContains } from '@medplum/fhirtypes';
import type { ValueSetExpandParams } from '../../data-provider/client';
import type { ValueSetCodeLookup } from './validationTypes';

/** The one FhirClient method the lookup needs. */
export interface ValueSetExpander {
  valueSetExpand(params: ValueSetExpandParams): Promise<ValueSet>;
}

function contains(
  items: readonly ValueSetExpansionContains[] | undefined,
  system: string | undefined,
  code: string,
): boolean {
  return (items ?? []).some(
    (item) =>
      (item.code === code && (!system || !item.system || item.system === system)) ||
      contains(item.contains, system, code),
  );
}

/** How many expansion entries one check asks for: a filter on the code keeps the answer small. */
const EXPAND_COUNT = 50;

/**
 * Required-binding checks over `ValueSet/$expand?url=…&filter={code}` (app-spec §7). Expansions are
 * cached per ValueSet and code for the lookup's lifetime (one per session); a ValueSet the server cannot expand
 * answers undefined (not checked) rather than a guess.
 */
export function valueSetExpandLookup(client: ValueSetExpander): ValueSetCodeLookup {
  // One expansion per ValueSet and code; the system is checked against the cached answer.
  const cache = new Map<string, Promise<ValueSetExpansionContains[] | undefined>>();
  return {
    async hasCode(valueSetUrl, system, code) {
      const key = `${valueSetUrl}\n${code}`;
      let expansion = cache.get(key);
      if (!expansion) {
        expansion = client
          .valueSetExpand({ url: valueSetUrl, filter: code, count: EXPAND_COUNT })
          .then((expanded) => expanded.expansion?.contains ?? [])
          .catch(() => undefined);
        cache.set(key, expansion);
      }
      const items = await expansion;
      return items === undefined ? undefined : contains(items, system, code);
    },
  };
}
