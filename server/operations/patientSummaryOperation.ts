import { randomUUID } from 'node:crypto';
import type { Bundle, Patient, Reference, Resource } from '@medplum/fhirtypes';
import { FhirError } from '../fhir/fhirError';
import type { RepositorySession } from '../fhir/repository';
import { parseSearchRequest } from '../search/searchRequest';
import {
  buildPatientSummary,
  type PatientSummaryContent,
  type SummaryAuthor,
  type SummarySectionContent,
} from './patientSummary';
import { newestFirst } from './patientSummaryDates';
import { summarySectionLimit, summarySections, type SummarySearch } from './patientSummarySections';

/** Profiles that can author a document; a Patient, a Bot or a ClientApplication does not. */
const authorTypes = new Set<string>([
  'Practitioner',
  'PractitionerRole',
  'Organization',
  'Device',
] satisfies SummaryAuthor['resourceType'][]);

/**
 * `Patient/{id}/$summary`: the patient's International Patient Summary, made of what the caller
 * may read. Every resource is fetched by the caller's own read or search, under its access policy
 * and SMART scopes; a type it may not search leaves its section out (or, for a required one,
 * marked withheld); resources of another project than the patient's are never taken, even by a
 * super admin, whose searches span projects.
 */
export async function patientSummary(
  session: RepositorySession,
  patientId: string,
  callerProfile: Reference | undefined,
  fhirBase: string,
): Promise<Bundle> {
  // 404/410 when absent or of another project, 403 when the policy does not grant it: as a read.
  const patient = (await session.read('Patient', patientId)) as Patient;
  const project = patient.meta?.project;
  const ofPatientProject = (resource: Resource) => resource.meta?.project === project;

  const sections: SummarySectionContent[] = [];
  for (const definition of summarySections) {
    let withheld = false;
    let found: Resource[] = [];
    for (const search of definition.searches) {
      const matches = await searchAsCaller(session, search, patientId);
      if (matches) found.push(...matches.filter(ofPatientProject));
      else withheld = true;
    }
    if (definition.searches.length > 1) found = newestFirst(found);
    const resources = (definition.select ? definition.select(found) : found).slice(0, summarySectionLimit);
    sections.push({ definition, resources, withheld });
  }

  const listed = sections.flatMap((section) => section.resources);
  const referenced = (await readReferenced(session, listed)).filter(ofPatientProject);
  const author = await readAuthor(session, callerProfile);
  const content: PatientSummaryContent = {
    patient,
    sections,
    referenced,
    author: author && ofPatientProject(author) ? author : undefined,
  };
  return buildPatientSummary(content, {
    fhirBase,
    now: new Date(),
    documentId: randomUUID(),
    compositionId: randomUUID(),
  });
}

/** The patient's resources one search finds as the caller; undefined when the caller may not search so. */
async function searchAsCaller(
  session: RepositorySession,
  search: SummarySearch,
  patientId: string,
): Promise<Resource[] | undefined> {
  const query = {
    ...search.query,
    patient: `Patient/${patientId}`,
    _count: String(search.count ?? summarySectionLimit),
  };
  try {
    return (await session.search(parseSearchRequest(search.resourceType, query, session.registry))).resources;
  } catch (error) {
    // The type, or a parameter reading a field the policy hides, is not the caller's to search.
    if (error instanceof FhirError && error.status === 403) return undefined;
    throw error;
  }
}

/** Types whose resources listed entries point to, and the document holds so that a reader can follow them. */
const referencedTypes = ['Medication', 'Device', 'Observation'] as const;

/**
 * Result Observations the listed reports point to that the document takes in at most: a panel has
 * a dozen, and fifty reports of large panels would otherwise make one summary read thousands.
 */
export const summaryReportResultsRead = 200;

/** What one listed entry points to that the document should hold: its medication, device or results. */
function pointedTo(resource: Resource): string[] {
  switch (resource.resourceType) {
    case 'MedicationStatement':
    case 'MedicationRequest':
      return [resource.medicationReference?.reference ?? ''];
    case 'DeviceUseStatement':
      return [resource.device.reference ?? ''];
    case 'DiagnosticReport':
      return (resource.result ?? []).map((result) => result.reference ?? '');
    default:
      return [];
  }
}

/**
 * The Medications, Devices and report results the listed entries name, found by one `_id` search
 * per type as the caller: what it may not read stays out (the entry then names it only by its
 * reference).
 */
async function readReferenced(session: RepositorySession, listed: Resource[]): Promise<Resource[]> {
  const listedKeys = new Set(listed.map((resource) => `${resource.resourceType}/${resource.id}`));
  const wanted = new Map<string, Set<string>>(referencedTypes.map((type) => [type, new Set()]));
  for (const resource of listed) {
    for (const reference of pointedTo(resource)) {
      const match = /^(Medication|Device|Observation)\/([A-Za-z0-9\-.]{1,64})$/.exec(reference);
      if (!match || listedKeys.has(reference)) continue;
      const ids = wanted.get(match[1]);
      if (ids && (match[1] !== 'Observation' || ids.size < summaryReportResultsRead)) ids.add(match[2]);
    }
  }
  const found: Resource[] = [];
  for (const [resourceType, ids] of wanted) {
    if (ids.size === 0) continue;
    const query = { _id: [...ids].join(','), _count: String(ids.size) };
    try {
      found.push(...(await session.search(parseSearchRequest(resourceType, query, session.registry))).resources);
    } catch (error) {
      if (!(error instanceof FhirError && error.status === 403)) throw error;
    }
  }
  return found;
}

/** The caller's profile as the caller may read it, when it is of a kind that authors documents. */
async function readAuthor(
  session: RepositorySession,
  profile: Reference | undefined,
): Promise<SummaryAuthor | undefined> {
  const match = /^([A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})$/.exec(profile?.reference ?? '');
  if (!match || !authorTypes.has(match[1])) return undefined;
  try {
    return (await session.read(match[1], match[2])) as SummaryAuthor;
  } catch (error) {
    if (error instanceof FhirError && [403, 404, 410].includes(error.status)) return undefined;
    throw error;
  }
}
