/** A literal `Type/id` reference inside a resource, with the element path that holds it. */
export interface LiteralReference {
  /** FHIRPath-style location, e.g. `Observation.performer[1].reference`. */
  path: string;
  resourceType: string;
  id: string;
}

const literalPattern = /^([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/[A-Za-z0-9\-.]{1,64})?$/;

/**
 * The literal references a resource makes to other resources of this server. Contained (`#…`),
 * absolute (`https://…`), `urn:` and conditional (`Type?…`) references are not literal and are
 * left out, as is `meta` (written by the server).
 */
export function literalReferences(resource: Record<string, unknown>): LiteralReference[] {
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
        const match = literalPattern.exec(child);
        if (match) found.push({ path: `${path}.reference`, resourceType: match[1], id: match[2] });
      } else {
        walk(child, `${path}.${key}`, depth + 1);
      }
    }
  };
  walk(resource, type, 0);
  return found;
}
