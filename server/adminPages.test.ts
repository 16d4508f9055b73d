import { get } from 'node:http';
import { describe, expect, it } from 'vitest';
import { baseUrl } from '../tests/integration/fhirClient';

/** A GET as node:http sends it (nothing in between), with the browser's headers. */
function rawGet(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; type: string; csp: string; body: string }> {
  return new Promise((resolve, reject) => {
    const request = get(new URL(path, baseUrl()), { headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          type: String(response.headers['content-type'] ?? ''),
          csp: String(response.headers['content-security-policy'] ?? ''),
          body,
        }),
      );
    });
    request.on('error', reject);
  });
}

const browserAccept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('/admin/* in the browser (issue 19)', () => {
  it('a browser opening /admin/project gets the app with the page CSP, not the raw JSON 404', async () => {
    const home = await rawGet('/', { accept: browserAccept });
    for (const path of ['/admin/project', '/admin/project/members', '/admin/project?tab=bots']) {
      const page = await rawGet(path, { accept: browserAccept });
      expect(page.status, path).toBe(200);
      expect(page.type, path).toContain('text/html');
      expect(page.body, path).toBe(home.body);
      expect(page.csp, path).toBe(home.csp);
    }
  });

  it('API calls under /admin/ keep their JSON answers', async () => {
    const json = await rawGet('/admin/project', { accept: 'application/json' });
    expect(json.status).toBe(404);
    expect(json.type).toContain('json');
    expect(JSON.parse(json.body).resourceType).toBe('OperationOutcome');
    const noAccept = await rawGet('/admin/projects/x/members', {});
    expect(noAccept.status).toBe(404);
    expect(noAccept.type).toContain('json');
    const post = await fetch(new URL('/admin/project', baseUrl()), {
      method: 'POST',
      headers: { accept: browserAccept, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(post.status).toBe(404);
    expect(post.headers.get('content-type')).toContain('json');
  });
});
