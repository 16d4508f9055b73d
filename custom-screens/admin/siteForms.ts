import type { ProjectSite } from '@medplum/fhirtypes';
import { projectSiteProblems, type SiteProblem } from '../../data-provider/rules';

/** One site as the form edits it: domains as one text, one per line or separated by commas. */
export interface SiteForm {
  key: string;
  name: string;
  domains: string;
  googleClientId: string;
  googleClientSecret: string;
  recaptchaSiteKey: string;
  recaptchaSecretKey: string;
}

export type SiteField = Exclude<keyof SiteForm, 'key'>;
export type SiteFormProblems = Record<string, Partial<Record<SiteField, string>>>;

let nextKey = 0;
export function newSiteForm(): SiteForm {
  nextKey += 1;
  return {
    key: `new-${nextKey}`,
    name: '',
    domains: '',
    googleClientId: '',
    googleClientSecret: '',
    recaptchaSiteKey: '',
    recaptchaSecretKey: '',
  };
}

export function siteFormsOf(sites: readonly ProjectSite[] | undefined): SiteForm[] {
  return (sites ?? []).map((site, index) => ({
    key: `stored-${index}`,
    name: site.name ?? '',
    domains: (site.domain ?? []).join('\n'),
    googleClientId: site.googleClientId ?? '',
    googleClientSecret: site.googleClientSecret ?? '',
    recaptchaSiteKey: site.recaptchaSiteKey ?? '',
    recaptchaSecretKey: site.recaptchaSecretKey ?? '',
  }));
}

function domainList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((domain) => domain.trim())
    .filter((domain) => domain !== '');
}

/** The body of `POST /admin/projects/{id}/sites`. */
export function sitesOf(forms: readonly SiteForm[]): ProjectSite[] {
  return forms.map((form) => {
    const site: ProjectSite = { name: form.name.trim(), domain: domainList(form.domains) };
    for (const field of ['googleClientId', 'googleClientSecret', 'recaptchaSiteKey', 'recaptchaSecretKey'] as const) {
      if (form[field].trim() !== '') site[field] = form[field].trim();
    }
    return site;
  });
}

/** A problem's path (`site[1].domain[0]`) as the form and field it is shown under. */
export function siteProblemTarget(
  forms: readonly SiteForm[],
  path: string,
): { key: string; field: SiteField } | undefined {
  const match = /^site\[(\d+)\]\.(\w+)/.exec(path);
  const form = match ? forms[Number(match[1])] : undefined;
  if (!form || !match) return undefined;
  const field = match[2] === 'domain' ? 'domains' : (match[2] as SiteField);
  return { key: form.key, field };
}

/** Problems by form and field, from the rule the server applies too (or from its answer's paths). */
export function siteFormProblems(forms: readonly SiteForm[], problems?: readonly SiteProblem[]): SiteFormProblems {
  const byForm: SiteFormProblems = {};
  for (const problem of problems ?? projectSiteProblems(sitesOf(forms))) {
    const target = siteProblemTarget(forms, problem.path);
    if (!target) continue;
    byForm[target.key] ??= {};
    byForm[target.key][target.field] ??= problem.message;
  }
  return byForm;
}
