import { indexedReferenceTarget } from '../search/indexRows';

/** A literal `Type/id` reference inside a resource, with the element path that holds it. */
export interface LiteralReference {
  /** FHIRPath-style location, e.g. `Observation.performer[1].reference`. */
  path: string;
  resourceType: string;
  id: string;
}

const literalPattern = /^([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/[A-Za-z0-9\-.]{1,64})?$/;

type TargetOf = (reference: string) => { resourceType: string; id: string } | undefined;

const literalTarget: TargetOf = (reference) => {
  const match = literalPattern.exec(reference);
  return match ? { resourceType: match[1], id: match[2] } : undefined;
};

const indexedTarget: TargetOf = (reference) => {
  const target = indexedReferenceTarget(reference);
  return target ? { resourceType: target.type, id: target.id } : undefined;
};

/** Is `reference` exactly a literal `Type/id` (or `Type/id/_history/v`) of this server? */
export function isLiteralReference(reference: string): boolean {
  return literalPattern.test(reference);
}

/**
 * The literal references a resource makes to other resources of this server. Contained (`#…`),
 * absolute (`https://…`), `urn:` and conditional (`Type?…`) references are not literal and are
 * left out, as is `meta` (written by the server). (An absolute URL of this server's own FHIR base
 * is stored in its relative form before this is asked: serverAddress.ts.)
 */
export function literalReferences(resource: Record<string, unknown>): LiteralReference[] {
  return referencesBy(resource, literalTarget);
}

/**
 * Every reference the search index files under a resource of this server (`target_type` and
 * `target_id`, indexRows.ts): the literal ones, and any other relative text ending in `Type/id`
 * (`Foo/1/Patient/2`), which searches, chains, includes and access-policy criteria then follow as if
 * it were `Type/id` here. An absolute URL gets no target (another server's resource, searched by
 * its whole text: server/search/absoluteReference.ts); contained, `urn:` and conditional references
 * are left out, as is `meta`.
 */
export function indexedReferences(resource: Record<string, unknown>): LiteralReference[] {
  return referencesBy(resource, indexedTarget);
}

function referencesBy(resource: Record<string, unknown>, targetOf: TargetOf): LiteralReference[] {
  const found: LiteralReference[] = [];
  const type = typeof resource.resourceType === 'string' ? resource.resourceType : 'Resource';
  const walk = (value: unknown, path: string, depth: number): void => {
    if (typeof value !== 'object' || value === null || depth > 100) return;
    if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, `${path}[${index}]`, depth + 1));
      return;
    }
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      if (depth === 0 && key === 'meta') continue;
      if (key === 'reference' && typeof child === 'string') {
        const target = targetOf(child);
        if (target) found.push({ path: `${path}.reference`, ...target });
      } else {
        walk(child, `${path}.${key}`, depth + 1);
      }
    }
  };
  walk(resource, type, 0);
  return found;
}
