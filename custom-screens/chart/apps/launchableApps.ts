import type { ClientApplication } from '@medplum/fhirtypes';
import { launchUriProblem } from '../../../data-provider/rules';

/** A SMART app the chart can start an EHR launch of. */
export interface LaunchableApp {
  id: string;
  name: string;
  description?: string;
  launchUri: string;
}

/**
 * The project's ClientApplications that can be launched from a chart: those with a launch URI the
 * browser may be sent to (the server refuses others on save; one stored before that rule is left
 * out rather than opened), by name.
 */
export function launchableApps(clients: readonly ClientApplication[]): LaunchableApp[] {
  const apps: LaunchableApp[] = [];
  for (const client of clients) {
    const launchUri = client.launchUri?.trim();
    if (!client.id || !launchUri || launchUriProblem(launchUri)) continue;
    apps.push({
      id: client.id,
      name: client.name?.trim() || 'Unnamed app',
      description: client.description?.trim() || undefined,
      launchUri,
    });
  }
  return apps.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

/**
 * The launch context of the chart at `rest` (the path below `/Patient/{id}/`): the patient, and
 * the encounter when the chart shows one (`Encounter/{id}/…`).
 */
export function chartLaunchContext(patientId: string, rest: string): { patientId: string; encounterId?: string } {
  const [segment, id] = rest.split('/');
  return segment === 'Encounter' && id ? { patientId, encounterId: id } : { patientId };
}
