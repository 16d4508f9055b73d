import { useQuery } from '@tanstack/react-query';
import type { Bundle } from '@medplum/fhirtypes';
import { useFhirClient } from '../../src/resources/useFhirClient';
import { memberRows, type MemberRow } from './memberRows';

/**
 * The active project's members, with the e-mail of each user the caller may read, their policies
 * and their profiles (the profile's e-mail stands in for an account the caller may not read).
 */
export function useProjectMembers() {
  const client = useFhirClient();
  return useQuery<MemberRow[], Error>({
    queryKey: ['hearth-admin-members', client.getProject()?.id],
    queryFn: async () => {
      const bundle = (await client.search(
        'ProjectMembership',
        '_count=1000&_include=ProjectMembership:user&_include=ProjectMembership:access-policy&_include=ProjectMembership:profile',
        {
          cache: 'no-cache',
        },
      )) as Bundle;
      return memberRows(bundle);
    },
    retry: false,
  });
}
