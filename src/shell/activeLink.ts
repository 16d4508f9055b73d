/** Query parameters that only page through a list, so they do not make a link more or less 'active'. */
const PAGING_PARAMETERS = new Set(['_count', '_offset']);

function splitHref(href: string): { path: string; params: string[] } {
  const url = new URL(href, 'http://app.invalid');
  const params = [...url.searchParams.entries()]
    .filter(([name]) => !PAGING_PARAMETERS.has(name))
    .map(([name, value]) => `${name}=${value}`);
  return { path: url.pathname.replace(/\/+$/, '') || '/', params };
}

/**
 * The navigation link to highlight for a location (app-spec §2.5): among the links whose path is the
 * location's path, the one sharing the most query parameters with it, ignoring `_count` and
 * `_offset`; the first such link on a tie. Undefined when no link's path matches.
 */
export function findActiveLink(location: string, hrefs: readonly string[]): string | undefined {
  const current = splitHref(location);
  const currentParams = new Set(current.params);
  let best: string | undefined;
  let bestScore = -1;
  for (const href of hrefs) {
    const link = splitHref(href);
    if (link.path !== current.path) continue;
    const score = link.params.filter((param) => currentParams.has(param)).length;
    if (score > bestScore) {
      best = href;
      bestScore = score;
    }
  }
  return best;
}
