import type { CodeSystem, ValueSet, ValueSetComposeInclude, ValueSetExpansionContains } from '@medplum/fhirtypes';
import { errors } from '../fhir/fhirError';
import { descendantsOf, flattenConcepts, type FlatConcept } from './codeSystemConcepts';
import { ExpansionBudget, expansionLimits, type ExpansionLimits } from './expansionBudget';
import { regexMatches } from './regexFilter';

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

/** One expansion's state: its budget, and nested value sets expanded once each (by URL). */
interface Expansion {
  source: TerminologySource;
  warnings: string[];
  budget: ExpansionBudget;
  nested: Map<string, ExpandedCode[]>;
  /** URLs being expanded now, outermost first: one met again is a cycle. */
  open: string[];
  /** Each fetched CodeSystem flattened once, however many parts name it. */
  flat: Map<CodeSystem, FlatConcept[]>;
}

/**
 * Every code a ValueSet contains (compose include/exclude, nested ValueSets, filters). Parts that
 * need a code system this server does not hold (SNOMED CT, LOINC…) are skipped with a warning, so
 * that a picker still offers what can be offered; nothing at all expandable is an error. The cost
 * is bounded (expansionBudget.ts): a ValueSet that needs more answers 422.
 */
export async function expandValueSet(
  valueSet: ValueSet,
  source: TerminologySource,
  warnings: string[] = [],
  limits: ExpansionLimits = expansionLimits,
): Promise<ExpandedCode[]> {
  const budget = new ExpansionBudget(valueSet.url ?? valueSet.id ?? 'the ValueSet', limits);
  const expansion: Expansion = {
    source: fetchedOnce(source, budget),
    warnings,
    budget,
    nested: new Map(),
    open: [],
    flat: new Map(),
  };
  const codes = await expandWithin(valueSet, expansion, 0);
  if (codes.length === 0 && warnings.length > 0)
    throw errors.notSupported(`Cannot expand ${valueSet.url ?? valueSet.id}: ${warnings.join('; ')}`);
  return codes;
}

/** The source, each URL fetched at most once per expansion, each fetch a step of the budget. */
function fetchedOnce(source: TerminologySource, budget: ExpansionBudget): TerminologySource {
  const codeSystems = new Map<string, Promise<CodeSystem | undefined>>();
  const valueSets = new Map<string, Promise<ValueSet | undefined>>();
  const once = <T>(cache: Map<string, Promise<T>>, url: string, fetch: () => Promise<T>): Promise<T> => {
    let found = cache.get(url);
    if (!found) {
      budget.step();
      found = fetch();
      cache.set(url, found);
    }
    return found;
  };
  return {
    codeSystem: (url) => once(codeSystems, url, () => source.codeSystem(url)),
    valueSet: (url) => once(valueSets, url, () => source.valueSet(url)),
  };
}

async function expandWithin(valueSet: ValueSet, expansion: Expansion, depth: number): Promise<ExpandedCode[]> {
  if (depth > maxDepth) throw errors.invalid(`ValueSet ${valueSet.url} includes itself (or nests too deep)`);
  if (!valueSet.compose && valueSet.expansion?.contains) {
    const codes = flattenContains(valueSet.expansion.contains);
    expansion.budget.addCodes(codes.length);
    return codes;
  }
  const included: ExpandedCode[] = [];
  for (const include of valueSet.compose?.include ?? [])
    for (const code of await expandInclude(include, expansion, depth)) included.push(code);
  const excluded = new Set<string>();
  for (const exclude of valueSet.compose?.exclude ?? []) {
    for (const code of await expandInclude(exclude, expansion, depth)) excluded.add(`${code.system}|${code.code}`);
  }
  const seen = new Set<string>();
  return included.filter((code) => {
    const key = `${code.system}|${code.code}`;
    if (excluded.has(key) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A nested ValueSet's codes, expanded once per expansion however often it is named. */
async function expandNested(url: string, expansion: Expansion, depth: number): Promise<ExpandedCode[] | undefined> {
  const done = expansion.nested.get(url);
  if (done) return done;
  if (expansion.open.includes(url)) throw errors.invalid(`ValueSet ${url} includes itself (or nests too deep)`);
  const nested = await expansion.source.valueSet(url);
  if (!nested) return undefined;
  expansion.open.push(url);
  try {
    const codes = await expandWithin(nested, expansion, depth + 1);
    expansion.nested.set(url, codes);
    return codes;
  } finally {
    expansion.open.pop();
  }
}

function flattenContains(contains: ValueSetExpansionContains[]): ExpandedCode[] {
  const out: ExpandedCode[] = [];
  const stack = [...contains].reverse();
  while (stack.length > 0) {
    const c = stack.pop() as ValueSetExpansionContains;
    if (c.code && c.system) out.push({ system: c.system, code: c.code, display: c.display });
    for (const child of [...(c.contains ?? [])].reverse()) stack.push(child);
  }
  return out;
}

async function expandInclude(
  include: ValueSetComposeInclude,
  expansion: Expansion,
  depth: number,
): Promise<ExpandedCode[]> {
  const { source, warnings, budget } = expansion;
  const flat = (codeSystem: CodeSystem) => {
    let concepts = expansion.flat.get(codeSystem);
    if (!concepts) expansion.flat.set(codeSystem, (concepts = flattenConcepts(codeSystem)));
    return concepts;
  };
  budget.step();
  let result: ExpandedCode[] | undefined;
  if (include.system) {
    const system = include.system;
    if (include.concept && include.concept.length > 0) {
      budget.addCodes(include.concept.length);
      // Listed concepts: displays from the ValueSet, else from the CodeSystem when we have it.
      const codeSystem = await source.codeSystem(system);
      const byCode = new Map(codeSystem ? flat(codeSystem).map((c) => [c.code, c]) : []);
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
      let concepts = flat(codeSystem);
      budget.addCodes(concepts.length);
      for (const filter of include.filter ?? [])
        concepts = applyFilter(concepts, filter.property, filter.op, filter.value, system, budget);
      result = concepts.map((c) => ({ system, code: c.code, display: c.display }));
    }
  }
  for (const url of include.valueSet ?? []) {
    const codes = await expandNested(url, expansion, depth);
    if (!codes) {
      warnings.push(`the value set ${url} is not available on this server`);
      continue;
    }
    budget.addCodes(codes.length);
    // With both a system and value sets, a code must be in all of them.
    if (result) {
      const keys = new Set(codes.map((c) => `${c.system}|${c.code}`));
      result = result.filter((r) => keys.has(`${r.system}|${r.code}`));
    } else result = codes;
  }
  return result ?? [];
}

function applyFilter(
  concepts: FlatConcept[],
  property: string | undefined,
  op: string | undefined,
  value: string | undefined,
  system: string,
  budget: ExpansionBudget,
): FlatConcept[] {
  const v = value ?? '';
  const valueOf = (c: FlatConcept) =>
    property === 'concept' || property === 'code' ? c.code : (c.properties[property ?? ''] ?? '');
  switch (op) {
    case 'is-a': {
      const below = descendantsOf(concepts, v);
      return concepts.filter((c) => c.code === v || below.has(c.code));
    }
    case 'descendent-of': {
      const below = descendantsOf(concepts, v);
      return concepts.filter((c) => below.has(c.code));
    }
    case 'is-not-a': {
      const below = descendantsOf(concepts, v);
      return concepts.filter((c) => c.code !== v && !below.has(c.code));
    }
    case '=':
      return concepts.filter((c) =>
        property === 'concept' || property === 'code' ? c.code === v : c.properties[property ?? ''] === v,
      );
    case 'in': {
      const values = new Set(v.split(','));
      return concepts.filter((c) => values.has(valueOf(c)));
    }
    case 'regex': {
      const matches = regexMatches(v, concepts.map(valueOf), budget, 'ValueSet.compose.include.filter.value');
      return concepts.filter((_, index) => matches[index]);
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
