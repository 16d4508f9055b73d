import { FhirError, outcomeOf } from '../fhir/fhirError';
import type { RepositorySession } from '../fhir/repository';
import { parseSearchRequest } from '../search/searchRequest';

const profileWords: Record<string, string> = {
  Patient: 'This patient already has a portal account',
  RelatedPerson: 'This related person already has a portal account',
  Practitioner: 'This practitioner already has an account in this project',
};

/**
 * 409 unless no membership of this project other than `exceptMembershipId` has `profile`
 * (`Type/id`): a second one would let two accounts act as the same person. Takes a transaction
 * lock on the profile first, so two invitations or edits naming it at once cannot both pass.
 */
export async function checkProfileUnclaimed(
  session: RepositorySession,
  projectId: string,
  profile: string,
  path: string,
  exceptMembershipId?: string,
): Promise<void> {
  await session.tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`hearth:membership-profile:${profile}`]);
  const query = { profile, project: `Project/${projectId}`, _count: '2' };
  const holders = await session.search(parseSearchRequest('ProjectMembership', query, session.registry));
  if (holders.resources.some((holder) => holder.id !== exceptMembershipId)) {
    const type = profile.split('/')[0];
    throw new FhirError(
      409,
      outcomeOf([
        {
          severity: 'error',
          code: 'duplicate',
          details: { text: profileWords[type] ?? 'This profile already has an account in this project' },
          expression: [path],
        },
      ]),
    );
  }
}
