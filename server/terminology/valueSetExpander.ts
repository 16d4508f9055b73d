import type { CodeSystem, ValueSet, ValueSetComposeInclude, ValueSetExpansionContains } from '@medplum/fhirtypes';
import { errors } from '../fhir/fhirError';
import { flattenConcepts, type FlatConcept } from './codeSystemConcepts';

/** Finds terminology resources by canonical URL (the caller decides where they come from). */
export interface TerminologySource {
  codeSystem(url: string): Promise<CodeSystem | undefined>;
  valueSet(url: string): Promise<ValueSet | undefined>;
}

export interface ExpandedCode {
  system: string;
  code: string;
  display?: string;
}

const maxDepth = 10;

/**
 * Every code a ValueSet contains (compose include/exclude, nested ValueSets, filters). Parts that
 * need a code system this server does not hold (SNOMED CT, LOINC…) are skipped with a warning, so
 * that a picker still offers what can be offered; nothing at all expandable is an error.
 */
export async function expandValueSet(
  valueSet: ValueSet,
  source: TerminologySource,
  warnings: string[] = [],
): Promise<ExpandedCode[]> {
  const codes = await expandWithin(valueSet, source, warnings, 0);
  if (codes.length === 0 && warnings.length > 0)
    throw errors.notSupported(`Cannot expand ${valueSet.url ?? valueSet.id}: ${warnings.join('; ')}`);
  return codes;
}

async function expandWithin(
  valueSet: ValueSet,
  source: TerminologySource,
  warnings: string[],
  depth: number,
): Promise<ExpandedCode[]> {
  if (depth > maxDepth) throw errors.invalid(`ValueSet ${valueSet.url} includes itself (or nests too deep)`);
  if (!valueSet.compose && valueSet.expansion?.contains) {
    return flattenContains(valueSet.expansion.contains);
  }
  const included: ExpandedCode[] = [];
  for (const include of valueSet.compose?.include ?? [])
    included.push(...(await expandInclude(include, source, warnings, depth)));
  const excluded = new Set<string>();
  for (const exclude of valueSet.compose?.exclude ?? []) {
    for (const code of await expandInclude(exclude, source, warnings, depth))
      excluded.add(`${code.system}|${code.code}`);
  }
  const seen = new Set<string>();
  return included.filter((code) => {
    const key = `${code.system}|${code.code}`;
    if (excluded.has(key) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function flattenContains(contains: ValueSetExpansionContains[]): ExpandedCode[] {
  return contains.flatMap((c) => [
    ...(c.code && c.system ? [{ system: c.system, code: c.code, display: c.display }] : []),
    ...flattenContains(c.contains ?? []),
  ]);
}

async function expandInclude(
  include: ValueSetComposeInclude,
  source: TerminologySource,
  warnings: string[],
  depth: number,
): Promise<ExpandedCode[]> {
  let result: ExpandedCode[] | undefined;
  if (include.system) {
    const system = include.system;
    if (include.concept && include.concept.length > 0) {
      // Listed concepts: displays from the ValueSet, else from the CodeSystem when we have it.
      const codeSystem = await source.codeSystem(system);
      const byCode = new Map(codeSystem ? flattenConcepts(codeSystem).map((c) => [c.code, c]) : []);
      result = include.concept.map((c) => ({
        system,
        code: c.code,
        display: c.display ?? byCode.get(c.code)?.display,
      }));
    } else {
      const codeSystem = await source.codeSystem(system);
      if (!codeSystem || !codeSystem.concept) {
        const warning = `the code system ${system} is not available on this server`;
        if (!warnings.includes(warning)) warnings.push(warning);
        return [];
      }
      let concepts = flattenConcepts(codeSystem);
      for (const filter of include.filter ?? [])
        concepts = applyFilter(concepts, filter.property, filter.op, filter.value, system);
      result = concepts.map((c) => ({ system, code: c.code, display: c.display }));
    }
  }
  for (const url of include.valueSet ?? []) {
    const nested = await source.valueSet(url);
    if (!nested) {
      warnings.push(`the value set ${url} is not available on this server`);
      continue;
    }
    const codes = await expandWithin(nested, source, warnings, depth + 1);
    // With both a system and value sets, a code must be in all of them.
    result = result ? result.filter((r) => codes.some((c) => c.system === r.system && c.code === r.code)) : codes;
  }
  return result ?? [];
}

function applyFilter(
  concepts: FlatConcept[],
  property: string | undefined,
  op: string | undefined,
  value: string | undefined,
  system: string,
): FlatConcept[] {
  const v = value ?? '';
  switch (op) {
    case 'is-a':
      return concepts.filter((c) => c.code === v || c.ancestors.includes(v));
    case 'descendent-of':
      return concepts.filter((c) => c.ancestors.includes(v));
    case 'is-not-a':
      return concepts.filter((c) => c.code !== v && !c.ancestors.includes(v));
    case '=':
      return concepts.filter((c) =>
        property === 'concept' || property === 'code' ? c.code === v : c.properties[property ?? ''] === v,
      );
    case 'in': {
      const values = new Set(v.split(','));
      return concepts.filter((c) =>
        values.has(property === 'concept' || property === 'code' ? c.code : (c.properties[property ?? ''] ?? '')),
      );
    }
    case 'regex': {
      const pattern = new RegExp(`^(?:${v})$`);
      return concepts.filter((c) =>
        pattern.test(property === 'concept' || property === 'code' ? c.code : (c.properties[property ?? ''] ?? '')),
      );
    }
    default:
      throw errors.notSupported(`Cannot expand: filter operator "${op}" on ${system} is not supported`);
  }
}

/**
 * Whether a code matches what the user typed: a prefix of the code, or every typed word the start
 * of some word of the display ("hyper ten" finds "Essential hypertension"; "male" not "Female").
 */
export function matchesFilter(code: ExpandedCode, filter: string): boolean {
  const text = filter.trim().toLowerCase();
  if (!text) return true;
  if (code.code.toLowerCase().startsWith(text)) return true;
  const words = (code.display ?? '').toLowerCase().split(/[^\p{L}\p{N}]+/u);
  return text.split(/\s+/).every((typed) => words.some((word) => word.startsWith(typed)));
}
