import type { OperationOutcomeIssue } from '@medplum/fhirtypes';
import { isKnownResourceType, resourceTypeNames } from './fhirJsonSchema';

/**
 * What an AccessPolicy must satisfy beyond its structure: each `resource[].resourceType` names a
 * resource type the server knows (FHIR R4 or Medplum's, as the schema lists them) or `*`. A
 * misspelled type ("Communicaton") otherwise saved and granted nothing, silently; it is refused with
 * the closest known type, when one is close enough to be a likely typo.
 */
export function validateAccessPolicy(policy: Record<string, unknown>): OperationOutcomeIssue[] {
  const issues: OperationOutcomeIssue[] = [];
  // The structure check reports a `resource` that is not a list, or an entry that is not an object.
  if (!Array.isArray(policy.resource)) return issues;
  policy.resource.forEach((entry: unknown, index) => {
    const type = (entry as { resourceType?: unknown } | null)?.resourceType;
    if (typeof type !== 'string' || type === '*' || isKnownResourceType(type)) return;
    const closest = closestResourceType(type);
    issues.push({
      severity: 'error',
      code: 'value',
      details: {
        text: `Unknown resource type "${type}"${closest ? ` (did you mean ${closest}?)` : ''}: an access policy entry must name a resource type or "*"`,
      },
      expression: [`AccessPolicy.resource[${index}].resourceType`],
    });
  });
  return issues;
}

/** The known resource type nearest to `type` (case ignored), if at most a third of it differs. */
export function closestResourceType(type: string): string | undefined {
  const wanted = type.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of resourceTypeNames()) {
    const distance = editDistance(wanted, name.toLowerCase());
    if (!best || distance < best.distance) best = { name, distance };
  }
  return best && best.distance <= Math.max(1, Math.floor(type.length / 3)) ? best.name : undefined;
}

/** Levenshtein distance (insertions, deletions and substitutions), two rows at a time. */
function editDistance(a: string, b: string): number {
  // The types are short (≤ 40 characters); a longer input is not a typo of one.
  if (Math.abs(a.length - b.length) > 12) return Math.abs(a.length - b.length);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
