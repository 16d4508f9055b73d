/** A problem with one field of a site, by its path in the `Project.site` array. */
export interface SiteProblem {
  path: string;
  message: string;
}

/** What a site may say, in the shape of Medplum's `ProjectSite`. */
export interface SiteInput {
  name?: unknown;
  domain?: unknown;
  googleClientId?: unknown;
  googleClientSecret?: unknown;
  recaptchaSiteKey?: unknown;
  recaptchaSecretKey?: unknown;
}

export const siteTextFields = [
  'googleClientId',
  'googleClientSecret',
  'recaptchaSiteKey',
  'recaptchaSecretKey',
] as const;
export const maxSites = 50;

// A host name as browsers send it in Host (letters, digits, hyphens, dots; optional port).
const hostPattern =
  /^(?=.{1,253}(:|$))([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*(:\d{1,5})?$/;

/** Is `text` a bare domain (no scheme, path or spaces), as a site lists the hosts it answers on? */
export function isSiteDomain(text: string): boolean {
  return hostPattern.test(text);
}

/**
 * The problems of a list of sites (`Project.site`): each needs a name (unique) and at least one
 * domain, a bare host name that no other site of the project claims; the optional keys are short
 * strings. Shared by the admin screen (messages under fields) and the server (400 with the path).
 */
export function projectSiteProblems(sites: readonly SiteInput[]): SiteProblem[] {
  const problems: SiteProblem[] = [];
  if (sites.length > maxSites) return [{ path: 'site', message: `At most ${maxSites} sites` }];
  const names = new Set<string>();
  const domains = new Set<string>();
  sites.forEach((site, index) => {
    const at = `site[${index}]`;
    if (typeof site !== 'object' || site === null || Array.isArray(site)) {
      problems.push({ path: at, message: 'Expected an object { name, domain }' });
      return;
    }
    const name = typeof site.name === 'string' ? site.name.trim() : '';
    if (!name || name.length > 200)
      problems.push({ path: `${at}.name`, message: 'Name is required (up to 200 characters)' });
    else if (names.has(name)) problems.push({ path: `${at}.name`, message: `Duplicate site name ${name}` });
    names.add(name);
    const list = site.domain;
    if (!Array.isArray(list) || list.length === 0) {
      problems.push({ path: `${at}.domain`, message: 'At least one domain is required' });
    } else {
      list.forEach((domain: unknown, position) => {
        const path = `${at}.domain[${position}]`;
        if (typeof domain !== 'string' || !isSiteDomain(domain)) {
          problems.push({ path, message: 'A domain is a host name such as app.example.org (no https:// or path)' });
        } else if (domains.has(domain.toLowerCase())) {
          problems.push({ path, message: `Domain ${domain} is already listed` });
        } else domains.add(domain.toLowerCase());
      });
    }
    for (const field of siteTextFields) {
      const value = site[field];
      if (value !== undefined && value !== '' && (typeof value !== 'string' || value.length > 500)) {
        problems.push({ path: `${at}.${field}`, message: `${field} must be text of at most 500 characters` });
      }
    }
  });
  return problems;
}
