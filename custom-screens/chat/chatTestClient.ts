/**
 * Test support (not part of the public surface): the calls the chat screens make of the client,
 * answered from memory, with what was read and written kept for the assertions.
 */
import { vi } from 'vitest';
import type { AccessPolicy, Communication, Patient, Practitioner, Resource } from '@medplum/fhirtypes';
import { canPerform } from '../../data-provider/access';
import type { FhirClient } from '../../data-provider/client';

export interface ChatTestClient {
  client: FhirClient;
  /** Communications the screens created (sent messages). */
  posted: Communication[];
  /** Reads of the patient past the cache (`cache: 'no-store'`), as a send's last check makes them. */
  freshPatientReads(): number;
  /** The patient as the server will answer it from now on (a death recorded elsewhere). */
  setPatient(patient: Patient): void;
}

export function chatTestClient(options: {
  patient: Patient;
  profile: Practitioner | Patient;
  messages?: Communication[];
  /** The signed-in project's name (none by default). */
  projectName?: string;
  /** The member's access policy (none by default: everything allowed). */
  policy?: AccessPolicy;
  /** The clinic's people the server holds, for the lookup of senders named by reference only. */
  practitioners?: Practitioner[];
}): ChatTestClient {
  let patient = options.patient;
  const posted: Communication[] = [];
  const reads: { type: string; cache?: string }[] = [];
  let nextId = 1;
  const client = {
    getActiveLogin: () => ({ accessToken: 't', refreshToken: 'r', project: { reference: 'Project/p' }, profile: {} }),
    getProfile: () => options.profile,
    getProject: () => ({ resourceType: 'Project', id: 'p', name: options.projectName }),
    getProjectMembership: () => undefined,
    getUserConfiguration: () => undefined,
    getAccessPolicy: () => options.policy,
    isSuperAdmin: () => false,
    getLogins: () => [],
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    readResource: vi.fn(async (type: string, id: string, readOptions: { cache?: string } = {}) => {
      reads.push({ type, cache: readOptions.cache });
      if (type === 'Patient' && id === patient.id) return patient;
      const message = (options.messages ?? []).find((m) => m.id === id);
      if (type === 'Communication' && message) return message;
      throw new Error('Not found');
    }),
    searchResources: vi.fn(async () => [...(options.messages ?? []), ...posted]),
    // The senders' lookup (`_id` searches): refused, as the server does, for a type the policy does not grant.
    search: vi.fn(async (type: string, query: { _id?: string }) => {
      if (!canPerform(options.policy, type, 'search')) throw new Error(`Forbidden: search of ${type}`);
      const ids = (query._id ?? '').split(',');
      const found =
        type === 'Practitioner' ? (options.practitioners ?? []).filter((p) => ids.includes(p.id ?? '')) : [];
      return { resourceType: 'Bundle', type: 'searchset', entry: found.map((resource) => ({ resource })) };
    }),
    createResource: vi.fn(async (resource: Resource) => {
      // The live-chat socket is not under test: its Subscription is refused, so the chat loads only.
      if (resource.resourceType !== 'Communication') throw new Error('Forbidden');
      const saved = { ...resource, id: `sent-${nextId++}`, meta: { lastUpdated: new Date().toISOString() } };
      posted.push(saved);
      return saved;
    }),
    updateResource: vi.fn(async (resource: Resource) => resource),
    getSubscriptionBindingToken: vi.fn(async () => Promise.reject(new Error('Forbidden'))),
  };
  return {
    client: client as unknown as FhirClient,
    posted,
    freshPatientReads: () => reads.filter((read) => read.type === 'Patient' && read.cache === 'no-store').length,
    setPatient: (next) => (patient = next),
  };
}
