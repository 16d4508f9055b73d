import type { Resource } from '@medplum/fhirtypes';
import { chartPath } from '../chartPaths';

/**
 * The patient portal's home, where a patient reads and answers their messages (PORTAL_HOME in
 * custom-screens/chat/portal; not imported from there, so that the chart's chunk does not carry
 * the portal's layout).
 */
export const PATIENT_MESSAGES_PATH = '/';

/**
 * Where a timeline entry opens: a Patient version its version page, a record its page in the
 * chart. A message in a patient's own view opens their messages: the chart's chat (under
 * `communication/…`) is the care team's, and would only send them back to the timeline.
 */
export function timelineEntryLink(resource: Resource, patientId: string, patientView: boolean): string {
  if (resource.resourceType === 'Patient') return `/Patient/${resource.id}/_history/${resource.meta?.versionId ?? ''}`;
  if (resource.resourceType === 'Communication' && patientView) return PATIENT_MESSAGES_PATH;
  return chartPath(patientId, resource.resourceType, resource.id ?? '');
}
