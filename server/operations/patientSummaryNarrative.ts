import type {
  AllergyIntolerance,
  CarePlan,
  CodeableConcept,
  Condition,
  Device,
  DeviceUseStatement,
  DiagnosticReport,
  Immunization,
  Medication,
  MedicationRequest,
  MedicationStatement,
  Observation,
  Procedure,
  Reference,
  Resource,
} from '@medplum/fhirtypes';
import { formatCodeableConcept, formatObservationValue } from '../../data-provider/formatting';
import { clinicalDate, readableDate, readablePeriod } from './patientSummaryDates';
import type { SummarySectionKey } from './patientSummarySections';

/**
 * The narrative of the summary's sections: a plain XHTML table of what each lists. Every value
 * comes from stored resources, which anyone who may write them chose, so every one goes through
 * `escapeXhtml` and nothing else reaches the markup.
 */

/** The resource a reference of `from` points to, when the document holds it (or `from` contains it). */
export type ResolveReference = (reference: Reference | undefined, from: Resource) => Resource | undefined;

const xhtmlNamespace = 'http://www.w3.org/1999/xhtml';

/**
 * Text made safe for XHTML content and attribute values. Characters XML forbids (most control
 * characters, U+FFFE/U+FFFF) are dropped: one would make the whole narrative unreadable to an XML parser.
 */
export function escapeXhtml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed here
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
      .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&#39;')
  );
}

const div = (inner: string) => `<div xmlns="${xhtmlNamespace}">${inner}</div>`;
const cells = (tag: 'th' | 'td', values: string[]) =>
  values.map((value) => `<${tag}>${escapeXhtml(value)}</${tag}>`).join('');

function table(headers: string[], rows: string[][]): string {
  const body = rows.map((row) => `<tr>${cells('td', row)}</tr>`).join('');
  return `<table><thead><tr>${cells('th', headers)}</tr></thead><tbody>${body}</tbody></table>`;
}

/** A paragraph of text as a whole narrative. */
export function paragraphNarrative(text: string): string {
  return div(`<p>${escapeXhtml(text)}</p>`);
}

interface Layout {
  headers: string[];
  row: (resource: Resource, resolve: ResolveReference) => string[];
}

const concept = (value: CodeableConcept | undefined) => formatCodeableConcept(value);
const concepts = (values: CodeableConcept[] | undefined) => (values ?? []).map(concept).filter(Boolean).join('; ');
const dateOf = (resource: Resource) => readableDate(clinicalDate(resource));

const layouts: Record<SummarySectionKey, Layout> = {
  allergies: {
    headers: ['Allergy or intolerance', 'Type', 'Clinical status', 'Criticality', 'Reactions', 'Onset'],
    row: (resource) => {
      const allergy = resource as AllergyIntolerance;
      const reactions = (allergy.reaction ?? []).map((reaction) => concepts(reaction.manifestation));
      return [
        concept(allergy.code),
        [allergy.type, ...(allergy.category ?? [])].filter(Boolean).join(', '),
        concept(allergy.clinicalStatus),
        allergy.criticality ?? '',
        reactions.filter(Boolean).join('; '),
        dateOf(allergy),
      ];
    },
  },
  medications: {
    headers: ['Medication', 'Status', 'Dosage', 'Date'],
    row: (resource, resolve) => {
      const use = resource as MedicationStatement | MedicationRequest;
      const dosage = use.resourceType === 'MedicationStatement' ? use.dosage : use.dosageInstruction;
      return [
        medicationName(use, resolve),
        use.status ?? '',
        (dosage ?? [])
          .map((d) => d.text?.trim())
          .filter(Boolean)
          .join('; '),
        dateOf(use),
      ];
    },
  },
  problems: {
    headers: ['Problem', 'Clinical status', 'Verification', 'Onset'],
    row: (resource) => {
      const condition = resource as Condition;
      return [
        concept(condition.code),
        concept(condition.clinicalStatus),
        concept(condition.verificationStatus),
        dateOf(condition) || (condition.onsetString ?? ''),
      ];
    },
  },
  immunizations: {
    headers: ['Vaccine', 'Status', 'Date'],
    row: (resource) => {
      const immunization = resource as Immunization;
      return [concept(immunization.vaccineCode), immunization.status, dateOf(immunization)];
    },
  },
  procedures: {
    headers: ['Procedure', 'Status', 'Date'],
    row: (resource) => {
      const procedure = resource as Procedure;
      const when = procedure.performedPeriod ? readablePeriod(procedure.performedPeriod) : dateOf(procedure);
      return [concept(procedure.code), procedure.status, when || (procedure.performedString ?? '')];
    },
  },
  devices: {
    headers: ['Device', 'Status', 'Since'],
    row: (resource, resolve) => {
      if (resource.resourceType === 'Device') return [deviceName(resource), resource.status ?? '', ''];
      const statement = resource as DeviceUseStatement;
      const device = resolve(statement.device, statement) as Device | undefined;
      const name = device ? deviceName(device) : (statement.device.display ?? '');
      return [name, statement.status, dateOf(statement)];
    },
  },
  results: {
    headers: ['Test', 'Result', 'Status', 'Date'],
    row: (resource, resolve) => {
      if (resource.resourceType === 'DiagnosticReport') {
        const report = resource as DiagnosticReport;
        const result = report.conclusion?.trim() || concepts(report.conclusionCode) || reportResults(report, resolve);
        return [concept(report.code), result, report.status, dateOf(report)];
      }
      const observation = resource as Observation;
      return [concept(observation.code), observationValue(observation), observation.status, dateOf(observation)];
    },
  },
  vitalSigns: {
    headers: ['Measurement', 'Value', 'Date'],
    row: (resource) => {
      const observation = resource as Observation;
      return [concept(observation.code), observationValue(observation), dateOf(observation)];
    },
  },
  pastIllness: {
    headers: ['Condition', 'Clinical status', 'Onset', 'Resolved'],
    row: (resource) => {
      const condition = resource as Condition;
      const resolved =
        readableDate(condition.abatementDateTime ?? condition.abatementPeriod?.start) ||
        (condition.abatementString ?? '');
      return [concept(condition.code), concept(condition.clinicalStatus), dateOf(condition), resolved];
    },
  },
  planOfCare: {
    headers: ['Plan', 'Status', 'Period'],
    row: (resource) => {
      const plan = resource as CarePlan;
      const name = plan.title?.trim() || plan.description?.trim() || concepts(plan.category);
      return [name, plan.status, plan.period ? readablePeriod(plan.period) : readableDate(plan.created)];
    },
  },
};

const withheldNote = "Some information is not included: the requester's access does not cover all of it.";

/** The table of what a section lists; `withheld` adds that the requester may not see all it could hold. */
export function sectionNarrative(
  key: SummarySectionKey,
  resources: Resource[],
  resolve: ResolveReference,
  withheld = false,
): string {
  const layout = layouts[key];
  const rows = table(
    layout.headers,
    resources.map((resource) => layout.row(resource, resolve)),
  );
  return div(withheld ? `${rows}<p>${escapeXhtml(withheldNote)}</p>` : rows);
}

/** How an empty required section names what it lacks. */
const emptyPhrases: Partial<Record<SummarySectionKey, string>> = {
  allergies: 'allergies or intolerances',
  medications: 'current medications',
  problems: 'current problems',
};

/**
 * The narrative of a required section with nothing to list. It never says the patient has none:
 * the record may simply not hold them, or not for this requester.
 */
export function emptySectionNarrative(key: SummarySectionKey, title: string, withheld: boolean): string {
  const phrase = emptyPhrases[key] ?? title.toLowerCase();
  return paragraphNarrative(
    withheld
      ? `Information about ${phrase} is not included: the requester's access does not cover it.`
      : `There is no information about ${phrase}.`,
  );
}

function medicationName(use: MedicationStatement | MedicationRequest, resolve: ResolveReference): string {
  if (use.medicationCodeableConcept) return concept(use.medicationCodeableConcept);
  const medication = resolve(use.medicationReference, use) as Medication | undefined;
  return (medication && concept(medication.code)) || use.medicationReference?.display?.trim() || '';
}

function deviceName(device: Device): string {
  return (
    device.deviceName?.find((name) => name.name?.trim())?.name.trim() ||
    concept(device.type) ||
    device.modelNumber?.trim() ||
    ''
  );
}

/** The value, or each component's (a blood pressure's systolic and diastolic), dates by the day. */
function observationValue(observation: Observation): string {
  return formatObservationValue(observation, { dateTime: readableDate, period: readablePeriod });
}

/**
 * A report without a conclusion, by its results: each one the document holds as "name value", the
 * others counted, so the reader sees the values instead of "3 results" when the caller may read them.
 */
function reportResults(report: DiagnosticReport, resolve: ResolveReference): string {
  const references = report.result ?? [];
  const shown: string[] = [];
  for (const reference of references) {
    const observation = resolve(reference, report) as Observation | undefined;
    const value = observation ? observationValue(observation) : '';
    if (observation && value) shown.push(`${concept(observation.code) || 'Result'} ${value}`);
  }
  const others = references.length - shown.length;
  if (others > 0) shown.push(shown.length ? `${others} more` : `${others} result${others === 1 ? '' : 's'}`);
  return shown.join('; ');
}
