/**
 * Prefixes the API owns that also hold client-side routes of the web app: the admin screens live
 * at /admin/project while the server's admin API lives at /admin/projects/{id}/....
 */
const appRoutesUnderApiPrefixes = ['/admin/'];

/**
 * A browser opening a page under such a prefix (GET or HEAD asking for HTML): it gets the app, not
 * the API's JSON 404. API clients ask for JSON (or nothing) and keep their JSON answers.
 */
export function isBrowserPageRequest(method: string, path: string, accept: string | undefined): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (!appRoutesUnderApiPrefixes.some((prefix) => path.startsWith(prefix))) return false;
  return (accept ?? '').toLowerCase().includes('text/html');
}
