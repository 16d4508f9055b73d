import { useMemo } from 'react';
import type { Communication } from '@medplum/fhirtypes';
import { canPerform } from '../../data-provider/access';
import { useFhirClient } from '../../src/resources/useFhirClient';
import { useReferenceNames } from '../../src/search/useReferenceNames';
import { sendersToLookUp, type SenderNames } from './chatMessages';

/**
 * The names of the senders the messages name only by reference, through the lists' own lookup
 * (one `_id` search per type, cached across screens): the chat and the timeline show the same
 * message the same way. Types the reader's policy does not let them search are not asked for —
 * the patient's portal policy keeps the care team's Practitioner records from her, and a refused
 * search would only fill the log; her screens call those senders her care team instead.
 */
export function useSenderNames(messages: readonly Communication[]): SenderNames {
  const client = useFhirClient();
  const policy = client.getAccessPolicy();
  const superAdmin = client.isSuperAdmin();
  const wanted = sendersToLookUp(messages)
    .filter((reference) => superAdmin || canPerform(policy, reference.split('/')[0], 'search'))
    .join(' ');
  // By value: a conversation re-renders on every message, its senders rarely change.
  const references = useMemo(() => (wanted ? wanted.split(' ') : []), [wanted]);
  return useReferenceNames(references);
}
