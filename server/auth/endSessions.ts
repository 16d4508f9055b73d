import type { Login } from '@medplum/fhirtypes';
import type { RepositorySession } from '../fhir/repository';
import { saveLogin } from './loginService';

/**
 * Ends every sign-in of a user, in every project, except `keepLoginId`: granted sessions (their
 * access and refresh tokens stop working at once, since every call re-reads the Login) and sign-ins
 * still in their steps. Used when the password changes: whoever knew the old one is out.
 * Answers how many were ended.
 */
export async function endSessions(session: RepositorySession, userId: string, keepLoginId?: string): Promise<number> {
  const rows = await session.tx.query<{ content: Login }>(
    `SELECT r.content FROM resources r JOIN search_reference s ON s.resource_type = r.resource_type AND s.resource_id = r.id
     WHERE r.resource_type = 'Login' AND NOT r.deleted AND s.code = 'user' AND s.target_type = 'User' AND s.target_id = $1
       AND NOT coalesce((r.content->>'revoked')::boolean, false)`,
    [userId],
  );
  let ended = 0;
  for (const { content } of rows) {
    const login = typeof content === 'string' ? (JSON.parse(content) as Login) : content;
    if (login.id === keepLoginId) continue;
    await saveLogin(session, { ...login, revoked: true, refreshSecret: undefined, code: undefined });
    ended++;
  }
  return ended;
}
