import type {
  Bundle,
  BundleEntry,
  Composition,
  CompositionSection,
  Device,
  Organization,
  Patient,
  Practitioner,
  PractitionerRole,
  Reference,
  Resource,
} from '@medplum/fhirtypes';
import { getDisplayString } from '../../data-provider/formatting';
import { readableDate } from './patientSummaryDates';
import {
  emptySectionNarrative,
  paragraphNarrative,
  sectionNarrative,
  type ResolveReference,
} from './patientSummaryNarrative';
import type { SummarySectionDefinition } from './patientSummarySections';

/** One section's entries as the caller may see them. */
export interface SummarySectionContent {
  definition: SummarySectionDefinition;
  /** What the section lists, in the order it lists it. */
  resources: Resource[];
  /** Some type the section draws from is outside what the caller may search. */
  withheld: boolean;
}

/** What may author the document: a Patient, a Bot or a ClientApplication does not. */
export type SummaryAuthor = Practitioner | PractitionerRole | Organization | Device;

/** Everything the document is made of, already fetched as the caller may read it. */
export interface PatientSummaryContent {
  patient: Patient;
  sections: SummarySectionContent[];
  /** What listed resources point to and the document holds too (a MedicationRequest's Medication). */
  referenced: Resource[];
  /** The caller's own profile, when of a kind that authors documents. */
  author?: SummaryAuthor;
}

export interface PatientSummaryOptions {
  /** `{BASE_URL}fhir/R4/`: the entries' fullUrls are this server's URLs of the resources. */
  fhirBase: string;
  now: Date;
  /** Bundle.identifier (a UUID): each generated document is a new document. */
  documentId: string;
  compositionId: string;
}

export const patientSummaryDocumentType = {
  system: 'http://loinc.org',
  code: '60591-5',
  display: 'Patient summary Document',
} as const;

const emptyReasonSystem = 'http://terminology.hl7.org/CodeSystem/list-empty-reason';
const emptyReasons = {
  withheld: { system: emptyReasonSystem, code: 'withheld', display: 'Information Withheld' },
  unavailable: { system: emptyReasonSystem, code: 'unavailable', display: 'Unavailable' },
};

const key = (resource: Resource) => `${resource.resourceType}/${resource.id}`;

/**
 * The International Patient Summary document (IPS IG, `Patient/$summary`): a `document` Bundle whose
 * first entry is the Composition, then the patient, the author and every resource a section lists
 * or a listed resource points to. Only what `content` holds appears, so the caller's access decides
 * it all before this runs; a required section with nothing to list says so with an emptyReason.
 */
export function buildPatientSummary(content: PatientSummaryContent, options: PatientSummaryOptions): Bundle {
  const { patient, author } = content;
  const held = new Map<string, Resource>();
  const hold = (resource: Resource) => {
    if (!held.has(key(resource))) held.set(key(resource), resource);
  };
  hold(patient);
  if (author) hold(author);
  for (const section of content.sections) section.resources.forEach(hold);
  content.referenced.forEach(hold);

  const resolve: ResolveReference = (reference, from) => {
    const target = reference?.reference;
    if (!target) return undefined;
    if (target.startsWith('#')) {
      return (from as { contained?: Resource[] }).contained?.find((inner) => `#${inner.id}` === target);
    }
    return held.get(target);
  };

  const sections: CompositionSection[] = [];
  for (const { definition, resources, withheld } of content.sections) {
    const base = { title: definition.title, code: { coding: [definition.code] } };
    if (resources.length > 0) {
      sections.push({
        ...base,
        text: { status: 'generated', div: sectionNarrative(definition.key, resources, resolve, withheld) },
        entry: resources.map((resource) => ({ reference: key(resource) })),
      });
    } else if (definition.required) {
      sections.push({
        ...base,
        text: { status: 'generated', div: emptySectionNarrative(definition.key, definition.title, withheld) },
        emptyReason: { coding: [withheld ? emptyReasons.withheld : emptyReasons.unavailable] },
      });
    }
  }

  const patientName = getDisplayString(patient);
  const timestamp = options.now.toISOString();
  const composition: Composition = {
    resourceType: 'Composition',
    id: options.compositionId,
    text: {
      status: 'generated',
      div: paragraphNarrative(`International Patient Summary of ${patientName}, ${readableDate(timestamp)}`),
    },
    status: 'final',
    type: { coding: [patientSummaryDocumentType] },
    subject: { reference: key(patient), display: patientName },
    date: timestamp,
    author: [authorReference(author)],
    title: 'International Patient Summary',
    confidentiality: 'N',
    section: sections,
  };

  // The Composition is made for this answer and stored nowhere; its fullUrl is still a URL of this
  // server, because FHIR resolves a relative reference (`Patient/1`) against the base of the
  // fullUrl of the entry that holds it, which a `urn:uuid:` fullUrl does not have.
  const entry: BundleEntry[] = [composition, ...held.values()].map((resource) => ({
    fullUrl: `${options.fhirBase}${key(resource)}`,
    resource,
  }));
  return {
    resourceType: 'Bundle',
    identifier: { system: 'urn:ietf:rfc:3986', value: `urn:uuid:${options.documentId}` },
    type: 'document',
    timestamp,
    entry,
  };
}

function authorReference(author: SummaryAuthor | undefined): Reference<SummaryAuthor> {
  if (!author) return { display: 'Hearth EMR' };
  return { reference: key(author), display: getDisplayString(author) };
}
