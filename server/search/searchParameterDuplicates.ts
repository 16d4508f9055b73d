import type { OperationOutcomeIssue, SearchParameter } from '@medplum/fhirtypes';
import { errors } from '../fhir/fhirError';
import type { BeforeCommitHook, CommittedWrite } from '../fhir/repository';
import type { SqlExecutor } from '../storage/database';

const everyType = new Set(['Resource', 'DomainResource']);

/** Do two SearchParameters' base lists name a type in common (`Resource` names every type)? */
export function basesOverlap(a: readonly string[], b: readonly string[]): boolean {
  if (a.some((base) => everyType.has(base)) || b.some((base) => everyType.has(base))) {
    return a.length > 0 && b.length > 0;
  }
  return a.some((base) => b.includes(base));
}

/**
 * A check run inside every writing transaction, before it commits: a project's SearchParameter
 * may not take a code another stored SearchParameter of the project already defines for one of
 * its base types (400, naming that one). Two of one code would each replace the other in the
 * project's registry, and removing one of them used to unregister the code altogether. Every stored
 * SearchParameter counts, whatever its status: the registry applies each of them. Checked in the
 * database under a lock of the project's code, so that two transactions (or processes) cannot each
 * add one, and a Bundle that saves two of one code is refused too.
 */
export function searchParameterDuplicatesHook(sharedProjectId: string): BeforeCommitHook {
  return async (tx: SqlExecutor, writes: readonly CommittedWrite[]) => {
    for (const write of writes) {
      if (write.operation === 'delete' || write.resource.resourceType !== 'SearchParameter') continue;
      const parameter = write.resource as SearchParameter;
      const projectId = parameter.meta?.project;
      if (!projectId || projectId === sharedProjectId || !parameter.code) continue;
      await tx.query("SELECT pg_advisory_xact_lock(hashtext('search-parameter-code:' || $1 || '|' || $2))", [
        projectId,
        parameter.code,
      ]);
      const others = await tx.query<{ id: string; url: string | null; base: string[] | null }>(
        `SELECT id, content->>'url' AS url, ARRAY(SELECT jsonb_array_elements_text(content->'base')) AS base
         FROM resources
         WHERE project_id = $1 AND resource_type = 'SearchParameter' AND NOT deleted
           AND content->>'code' = $2 AND id <> $3
         ORDER BY last_updated, id`,
        [projectId, parameter.code, parameter.id],
      );
      const bases = (parameter.base ?? []) as string[];
      const issues: OperationOutcomeIssue[] = others
        .filter((other) => basesOverlap(bases, other.base ?? []))
        .map((other) => ({
          severity: 'error',
          code: 'duplicate',
          details: {
            text:
              `The search parameter "${parameter.code}" of ${bases.join(', ')} is already defined in this project by ` +
              `SearchParameter/${other.id}${other.url ? ` (${other.url})` : ''}; change or delete that one instead of adding another`,
          },
          expression: ['SearchParameter.code'],
        }));
      if (issues.length > 0) throw errors.validation(issues);
    }
  };
}
