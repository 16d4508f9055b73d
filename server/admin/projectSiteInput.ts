import type { ProjectSite } from '@medplum/fhirtypes';
import { projectSiteProblems, siteTextFields, type SiteInput } from '../../data-provider/rules';
import { errors } from '../fhir/fhirError';

/**
 * The body of `POST /admin/projects/{id}/sites`: the whole `Project.site` array (Medplum's shape).
 * 400 with every problem's path (`site[0].domain[1]`) otherwise; empty optional keys are dropped.
 */
export function parseProjectSites(body: unknown): ProjectSite[] {
  if (!Array.isArray(body)) throw errors.invalid('Expected a JSON array of { name, domain[] }', 'site');
  const problems = projectSiteProblems(body as SiteInput[]);
  if (problems.length > 0) {
    throw errors.validation(
      problems.map((problem) => ({
        severity: 'error' as const,
        code: 'invalid' as const,
        details: { text: problem.message },
        expression: [problem.path],
      })),
    );
  }
  return (body as Record<string, unknown>[]).map((site) => {
    const clean: ProjectSite = {
      name: (site.name as string).trim(),
      domain: (site.domain as string[]).map((domain) => domain.toLowerCase()),
    };
    for (const field of siteTextFields) {
      const value = site[field];
      if (typeof value === 'string' && value !== '') clean[field] = value;
    }
    return clean;
  });
}
