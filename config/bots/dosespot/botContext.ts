import type { Identifier, Patient, ProjectMembership, Reference, Resource } from '@medplum/fhirtypes';
import type { BotSecrets } from './dosespotSettings';

/**
 * What the DoseSpot bots use of a bot run (Medplum's contract): the client acting as the bot,
 * and the event with the input, the project's secrets and who asked.
 */
export interface BotClient {
  readResource(resourceType: 'Patient', id: string): Promise<Patient>;
  updateResource<T extends Resource>(resource: T): Promise<T>;
  searchOne(
    resourceType: 'ProjectMembership',
    query: Record<string, string> | string,
  ): Promise<ProjectMembership | undefined>;
}

export interface BotEvent<T = unknown> {
  input: T;
  secrets: BotSecrets;
  /** The profile that ran the bot ($execute by a user). */
  requester?: Reference;
}

/** The caller's DoseSpot clinician id: the identifier of their membership whose system mentions DoseSpot. */
export async function clinicianIdOf(medplum: BotClient, event: BotEvent): Promise<string> {
  const requester = event.requester?.reference;
  if (!requester) throw new Error('DoseSpot: the bot was not run by a signed-in clinician (no requester)');
  const membership = await medplum.searchOne('ProjectMembership', { profile: requester });
  const identifier = (membership?.identifier ?? []).find(
    (candidate: Identifier) => candidate.system?.toLowerCase().includes('dosespot') && candidate.value,
  );
  if (!identifier?.value) throw new Error(`DoseSpot: ${requester} has no DoseSpot clinician id on their membership`);
  return identifier.value;
}

/** The patient id in a bot input ({ patientId }), checked. */
export function patientIdOf(input: unknown): string | undefined {
  const value = (input as { patientId?: unknown } | undefined)?.patientId;
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || !/^[A-Za-z0-9\-.]{1,64}$/.test(value)) {
    throw new Error('DoseSpot: patientId must be a FHIR id');
  }
  return value;
}
