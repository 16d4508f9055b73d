/** fetch with the bench server's bearer token (set once the bench has signed in). */
let authorization: string | undefined;

export function setBenchToken(token: string): void {
  authorization = `Bearer ${token}`;
}

export function benchHeaders(): Record<string, string> {
  return authorization ? { authorization } : {};
}

export function benchFetch(url: string): Promise<Response> {
  return fetch(url, { headers: benchHeaders() });
}
