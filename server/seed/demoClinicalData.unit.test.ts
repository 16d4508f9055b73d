import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  AllergyIntolerance,
  Appointment,
  Bundle,
  CarePlan,
  Communication,
  Condition,
  Device,
  DeviceRequest,
  DiagnosticReport,
  DocumentReference,
  Encounter,
  MedicationRequest,
  Observation,
  Patient,
  Resource,
  ServiceRequest,
  Task,
} from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedTestDatabase } from '../../tests/setup/embeddedTestDatabase';
import { PAST_MEDICATIONS_LISTED_UP_TO } from '../../config/clinical/medicationStatus';
import { medicationListOf, otherOrdersNote } from '../../custom-screens/chart/summary/rules/medicationGroups';
import { isCurrentCondition, isProblemListEntry } from '../../custom-screens/chart/summary/rules/problemListEntries';
import { inlineTextOf } from '../../data-provider/formatting';
import { BinaryStorage } from '../binary';
import { processBundle } from '../fhir/bundleProcessor';
import { Repository } from '../fhir/repository';
import { parseSearchRequest } from '../search/searchRequest';
import { definitionSearchParameters } from '../serverRuntime';
import { systemAuthor } from '../definitions/loadDefinitions';
import { BLOOD_PRESSURE, DIASTOLIC, SPARKLINE_READINGS, SYSTOLIC } from '../../config/clinical/vitals';
import { LAB_PROCEDURE_CATEGORY } from '../../config/clinical/chartTabs';
import { MENOPAUSE_NOTE_TASK_CODE } from '../../config/clinical/taskTerminology';
import { summarySearches } from '../../custom-screens/chart/summary/summaryQueries';
import { vitalReadings } from '../../custom-screens/chart/summary/rules/vitalReadings';
import { seedDemoClinicalData, type DemoClinicalSummary } from './demoClinicalData';
import { seedBundledQuestionnaires, seedDemoQuestionnaireTasks } from './bundledQuestionnaires';
import { ECHO_CONCLUSION, ECHO_REPORT_TEXT } from './demoHypertensionHistory';
import { AMLODIPINE, antihypertensiveFor, LISINOPRIL } from './demoAntihypertensiveChoice';
import { clinicDay } from './demoClinicDay';
import { hereTodaySearch, localDayBounds } from '../../custom-screens/scheduling/hereTodaySearch';
import { arrivalTime } from '../../custom-screens/scheduling/arrivalTime';

/**
 * The demo clinic's clinical data as a fresh start seeds it, on the Synthea patients it ships with
 * (and two children): what the chart's sidebar and report view are given to show, and that each
 * patient's problem, medication, care plan, lab, device, allergy and messages tell one story that
 * their own record supports, the same whatever random ids the import drew.
 */

const fixturesDir = join(import.meta.dirname, '../../tests/fixtures/synthea');
const SNOMED = 'http://snomed.info/sct';
const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const DAY = 24 * 60 * 60 * 1000;
const now = new Date('2026-06-15T12:00:00Z');
const projectId = 'demo-clinical-data';
/** The same clinic again, its patients given ids in another order (and different from the first's). */
const reorderedProjectId = 'demo-clinical-data-reordered';
const database = embeddedTestDatabase('demo-clinical-data');
const dataDir = mkdtempSync(join(tmpdir(), 'hearth-demo-clinical-binaries-'));
const registry = definitionSearchParameters();
let repository: Repository;

interface SeededClinic {
  projectId: string;
  summary: DemoClinicalSummary;
  aliceId: string;
  /** What seedDemoQuestionnaireTasks wrote after the clinical data, as demoSeed.ts runs it. */
  questionnaireResources: number;
}
let clinic: SeededClinic;
let reordered: SeededClinic;
// The first clinic's, as the tests of the history and the echocardiogram name them.
let summary: DemoClinicalSummary;
let aliceId: string;

/** Two children beside the Synthea adults: one whose record has asthma, one whose has hypertension. */
const CHILDREN: { patient: Patient; condition: { code: string; display: string; onset: string } }[] = [
  {
    patient: {
      resourceType: 'Patient',
      name: [{ given: ['Ava'], family: 'Brennan' }],
      gender: 'female',
      birthDate: '2017-03-02',
    },
    condition: { code: '233678006', display: 'Childhood asthma', onset: '2021-04-12' },
  },
  {
    patient: {
      resourceType: 'Patient',
      name: [{ given: ['Noah'], family: 'Brennan' }],
      gender: 'male',
      birthDate: '2018-09-10',
    },
    condition: { code: '38341003', display: 'Hypertension', onset: '2024-02-20' },
  },
];

/**
 * The reordered clinic's `_id` order: one in which the demo's former pick-by-position gave the
 * patient account's hypertensive Wendy a diabetes, the Asthma patient atorvastatin, Geoffrey
 * (amoxicillin twice) a penicillin allergy and a second hypertension, a child metformin, and the
 * urgent "above 160" message to Malcolm, whose blood pressure is normal. Other fixtures come last.
 */
const REORDERED = [
  'Malcolm Dach',
  'Wendy Littel',
  'Chauncey Johnston',
  'Geoffrey Abbott',
  'Noah Brennan',
  'Lemuel Hodkiewicz',
  'Clemente Kreiger',
  'Ava Brennan',
];

const nameOf = (patient: Patient) => `${patient.name?.[0]?.given?.join(' ')} ${patient.name?.[0]?.family}`;

const search = <T extends Resource>(type: string, query: Record<string, string>) =>
  repository.transaction(
    async (session) =>
      (await session.search(parseSearchRequest(type, { _count: '200', ...query }, session.registry))).resources as T[],
  );
const authorOf = (resource: Resource) =>
  (resource.meta as { author?: { reference?: string; display?: string } } | undefined)?.author;
const inProject = <T extends Resource>(resources: T[], project: string) =>
  resources.filter((resource) => resource.meta?.project === project);
const patientsNamed = async (family: string) => inProject(await search<Patient>('Patient', { family }), projectId);
const patientsOf = async (project: string) => inProject(await search<Patient>('Patient', {}), project);

/**
 * A clinic as the demo seeds it (demoSeed.ts): the bundled questionnaires, the Synthea fixtures and
 * the children, the patient account's membership (Wendy Littel's record, as demoAccounts.ts gives
 * it), Alice, then the clinical data and the questionnaire work.
 * `idOf` gives a patient the id to store them under; without it the server draws random ones.
 */
async function seedClinic(project: string, idOf?: (name: string) => string): Promise<SeededClinic> {
  const ctx = { projectId: project, author: systemAuthor };
  const env = { repository, registry, ctx, fhirBase: 'http://localhost/fhir/R4/' };
  await repository.transaction((session) =>
    session.create(ctx, { resourceType: 'Project', name: 'Demo Clinic' } as Resource, { id: project, fresh: true }),
  );
  await repository.transaction((session) => seedBundledQuestionnaires(session, project));
  for (const file of readdirSync(fixturesDir).filter((name) => name.endsWith('.json'))) {
    let bundle = JSON.parse(readFileSync(join(fixturesDir, file), 'utf8')) as Bundle;
    if (idOf) {
      // The patient stored under the chosen id; the bundle's references to it point there.
      const [first, ...rest] = bundle.entry ?? [];
      const patient = first.resource as Patient;
      const id = idOf(nameOf(patient));
      await repository.transaction((session) => session.create(ctx, patient, { id, fresh: true }));
      const text = JSON.stringify({ ...bundle, entry: rest });
      bundle = JSON.parse(text.split(JSON.stringify(first.fullUrl)).join(JSON.stringify(`Patient/${id}`))) as Bundle;
    }
    await processBundle(env, bundle);
  }
  for (const child of CHILDREN) {
    await repository.transaction(async (session) => {
      const id = idOf?.(nameOf(child.patient));
      const patient = await session.create(ctx, child.patient, id ? { id, fresh: true } : {});
      await session.create(ctx, {
        resourceType: 'Condition',
        clinicalStatus: {
          coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }],
        },
        code: {
          coding: [{ system: SNOMED, code: child.condition.code, display: child.condition.display }],
          text: child.condition.display,
        },
        subject: { reference: `Patient/${patient.id}` },
        onsetDateTime: child.condition.onset,
      } as Resource);
    });
  }
  const [wendy] = inProject(await search<Patient>('Patient', { family: 'Littel' }), project);
  await repository.transaction((session) =>
    session.create(ctx, {
      resourceType: 'ProjectMembership',
      project: { reference: `Project/${project}` },
      user: { reference: 'User/demo-patient-account' },
      profile: { reference: `Patient/${wendy.id}`, display: nameOf(wendy) },
    } as Resource),
  );
  // The front desk, before Alice (whose Practitioner starts the window "counts what it wrote" counts).
  await repository.transaction((session) =>
    session.create(ctx, {
      resourceType: 'Practitioner',
      name: [{ prefix: ['Mr.'], given: ['Ben'], family: 'Okafor' }],
      telecom: [{ system: 'email', use: 'work', value: 'ben@demo.hearth.example' }],
    } as Resource),
  );
  const alice = await repository.transaction((session) =>
    session.create(ctx, {
      resourceType: 'Practitioner',
      name: [{ prefix: ['Dr.'], given: ['Alice'], family: 'Carter' }],
      telecom: [{ system: 'email', use: 'work', value: 'alice@demo.hearth.example' }],
    } as Resource),
  );
  const seeded = await repository.transaction((session) =>
    seedDemoClinicalData(session, { projectId: project, dataDir, now }),
  );
  const questionnaireResources = await repository.transaction((session) =>
    seedDemoQuestionnaireTasks(session, { projectId: project, now }),
  );
  return { projectId: project, summary: seeded, aliceId: alice.id as string, questionnaireResources };
}

beforeAll(async () => {
  repository = new Repository(database(), registry);
  clinic = await seedClinic(projectId);
  ({ summary, aliceId } = clinic);
  // Ids sorting in REORDERED's order, then any other fixture's.
  const others: string[] = [];
  reordered = await seedClinic(reorderedProjectId, (name) => {
    const position = REORDERED.indexOf(name);
    if (position < 0) others.push(name);
    return `reordered-${String(position < 0 ? REORDERED.length + others.length : position).padStart(2, '0')}`;
  });
}, 300_000);

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the demo clinic on a fresh start', { timeout: 60_000 }, () => {
  it("tells the medication history on the patient with the longest-standing hypertension, by the chart's own rule", async () => {
    // Lemuel Hodkiewicz: hypertension since 2007 in his imported record (Geoffrey Abbott's is from 2011).
    const [lemuel] = await patientsNamed('Hodkiewicz');
    expect(summary.historyPatientId).toBe(lemuel.id);

    const orders = await search<MedicationRequest>('MedicationRequest', { subject: `Patient/${lemuel.id}` });
    const list = medicationListOf(orders);
    const name = (order: MedicationRequest) => order.medicationCodeableConcept?.text ?? '';
    // Folded in the sidebar: "Show 7 past medications".
    expect(list.foldPast).toBe(true);
    expect(list.past.length).toBeGreaterThan(PAST_MEDICATIONS_LISTED_UP_TO);
    // Seven different drugs, one row each (the cough syrup's row includes its 2011 order).
    expect(list.past.map((group) => name(group.order).split(' ')[0]).sort()).toEqual([
      'Acetaminophen', // 325 MG tablets, for a back strain
      'Acetaminophen', // 21.7 MG/ML / dextromethorphan / doxylamine, the cough syrup, for bronchitis
      'Amlodipine',
      'Hydrochlorothiazide', // 6.25 MG, imported
      'Loratadine',
      'Naproxen',
      'Ventolin', // HFA 90 mcg/actuation inhaler (albuterol)
    ]);
    // What he takes now: the lisinopril the history leads to (its renewals as earlier orders), and
    // his imported hydrochlorothiazide.
    expect(list.current.map((group) => [name(group.order), otherOrdersNote(group)])).toEqual([
      ['lisinopril 10 MG Oral Tablet', '2 earlier orders'],
      ['Hydrochlorothiazide 25 MG', ''],
    ]);
    // Several orders of one drug over time: amlodipine renewed twice, the last one stopped and why.
    const amlodipine = list.past.find((group) => name(group.order).startsWith('Amlodipine'));
    expect(amlodipine?.order.status).toBe('stopped');
    expect(amlodipine?.order.statusReason?.text).toMatch(/ankle swelling/i);
    expect(otherOrdersNote(amlodipine!)).toBe('2 earlier orders');
    expect(amlodipine?.others.map((order) => order.status)).toEqual(['completed', 'completed']);

    // Every order is coded in RxNorm; Alice's are written as her, dated before today, with a reason.
    for (const order of orders) {
      expect(order.medicationCodeableConcept?.coding?.[0]?.system).toBe(RXNORM);
    }
    const alices = orders.filter((order) => order.requester?.reference === `Practitioner/${aliceId}`);
    expect(alices).toHaveLength(12);
    for (const order of alices) {
      expect(authorOf(order)?.reference).toBe(`Practitioner/${aliceId}`);
      expect(Date.parse(order.authoredOn ?? '')).toBeLessThan(now.getTime());
      if (order.status !== 'active') expect(order.reasonCode ?? order.reasonReference).toBeDefined();
    }
  });

  it('renews his lisinopril at the same dose only with his blood pressure at target', async () => {
    for (const seeded of [clinic, reordered]) {
      const lemuel = `Patient/${seeded.summary.historyPatientId}`;
      const lisinopril = (await search<MedicationRequest>('MedicationRequest', { subject: lemuel }))
        .filter((order) => order.medicationCodeableConcept?.coding?.[0]?.code === LISINOPRIL.code)
        .sort((a, b) => Date.parse(a.authoredOn ?? '') - Date.parse(b.authoredOn ?? ''));
      // Started, renewed twice, the same tablet and dosage each time: the last is the current order.
      expect(lisinopril.map((order) => order.status)).toEqual(['completed', 'completed', 'active']);
      expect(new Set(lisinopril.map((order) => order.dosageInstruction?.[0]?.text))).toEqual(
        new Set([LISINOPRIL.dosage]),
      );
      // The reading of the visit at which it was renewed: under the care plan's 130/80.
      const renewed = lisinopril.at(-1)!;
      const readings = (
        await search<Observation>('Observation', { subject: lemuel, code: BLOOD_PRESSURE.code, _count: '1000' })
      ).filter((o) => o.effectiveDateTime?.slice(0, 10) === renewed.authoredOn?.slice(0, 10));
      expect(readings, seeded.projectId).toHaveLength(1);
      const value = (code: string) =>
        readings[0].component?.find((c) => c.code.coding?.some((coding) => coding.code === code))?.valueQuantity
          ?.value as number;
      expect(value(SYSTOLIC.code), seeded.projectId).toBeLessThan(130);
      expect(value(DIASTOLIC.code), seeded.projectId).toBeLessThan(80);
      // So he is not the clinic's urgent patient, whose home readings are above 160.
      const urgent = inProject(await search<Communication>('Communication', {}), seeded.projectId).filter(
        (message) => message.priority === 'urgent',
      );
      expect(urgent).toHaveLength(1);
      expect(urgent.map((message) => message.subject?.reference)).not.toContain(lemuel);
      // The echocardiogram's indication agrees: above target until lisinopril was added.
      expect(ECHO_REPORT_TEXT).toMatch(/above target on hydrochlorothiazide until lisinopril was added/);
    }
  });

  it('gives every discharge summary the hospital stay it is about', async () => {
    for (const seeded of [clinic, reordered]) {
      const summaries = inProject(
        await search<DocumentReference>('DocumentReference', { type: 'http://loinc.org|18842-5' }),
        seeded.projectId,
      );
      // The patient account's (Wendy's) and the urgent patient's.
      expect(summaries, seeded.projectId).toHaveLength(2);
      const wendy = (await patientsOf(seeded.projectId)).find((patient) => nameOf(patient) === 'Wendy Littel')!;
      expect(summaries.map((doc) => doc.subject?.reference)).toContain(`Patient/${wendy.id}`);
      for (const doc of summaries) {
        const stayId = doc.context?.encounter?.[0]?.reference?.replace('Encounter/', '') ?? '';
        const [stay] = await search<Encounter>('Encounter', { _id: stayId });
        const context = `${doc.subject?.reference} (${seeded.projectId})`;
        expect(stay, context).toMatchObject({
          status: 'finished',
          class: { code: 'IMP' },
          subject: doc.subject,
          reasonCode: [{ coding: [expect.objectContaining({ system: SNOMED, code: '385093006' })] }],
        });
        const [admitted, discharged] = [Date.parse(stay.period?.start ?? ''), Date.parse(stay.period?.end ?? '')];
        // A stay of nights, over before the summary was written and before today.
        expect(discharged - admitted, context).toBeGreaterThan(DAY);
        expect(discharged, context).toBeLessThanOrEqual(Date.parse(doc.date ?? ''));
        expect(Date.parse(doc.date ?? ''), context).toBeLessThan(now.getTime());
        expect(doc.context?.period).toEqual(stay.period);
        // The PDF names the stay; its stream length is what the file says.
        const binaryId = doc.content[0].attachment.url?.replace('Binary/', '') ?? '';
        const [binary] = await search<Resource>('Binary', { _id: binaryId });
        const pdf = (await BinaryStorage.inDataDir(dataDir).readAll(binaryId, binary.meta?.versionId ?? '')).toString(
          'utf8',
        );
        expect(pdf).toMatch(/Community-acquired pneumonia/);
        const [, length, stream] = /Length (\d+)>>stream\n(.*)\nendstream/.exec(pdf) ?? [];
        expect(Buffer.byteLength(stream ?? '')).toBe(Number(length));
        expect(doc.content[0].attachment.size).toBe(Buffer.byteLength(pdf));
      }
    }
  });

  it('gives no other patient a folded medication list', async () => {
    for (const patient of await patientsOf(projectId)) {
      if (patient.id === summary.historyPatientId) continue;
      const orders = await search<MedicationRequest>('MedicationRequest', { subject: `Patient/${patient.id}` });
      expect(medicationListOf(orders).foldPast, patient.name?.[0]?.family).toBe(false);
    }
  });

  it('answers an echocardiogram order of Alice with a final report carrying its text as a presented form', async () => {
    const [report, ...more] = inProject(
      await search<DiagnosticReport>('DiagnosticReport', { code: 'http://loinc.org|34552-0' }),
      projectId,
    );
    expect(more).toEqual([]);
    expect(report).toMatchObject({
      status: 'final',
      subject: { reference: `Patient/${summary.historyPatientId}` },
      conclusion: ECHO_CONCLUSION,
      category: expect.arrayContaining([{ coding: [expect.objectContaining({ code: 'LP29708-2' })] }]),
    });
    expect(authorOf(report)?.reference).toBe(`Practitioner/${aliceId}`);
    // Issued ten days before the seed's "now", like the rest of the demo dated relative to it.
    expect(now.getTime() - Date.parse(report.issued ?? '')).toBeGreaterThan(9 * DAY);
    expect(now.getTime() - Date.parse(report.issued ?? '')).toBeLessThan(11 * DAY);
    // The report view decodes it (text/plain, base64) to the report as written.
    const [form] = report.presentedForm ?? [];
    expect(form.contentType).toBe('text/plain');
    expect(inlineTextOf(form)).toBe(ECHO_REPORT_TEXT);
    expect(ECHO_REPORT_TEXT).toContain('CONCLUSION');
    expect(form.size).toBe(Buffer.byteLength(ECHO_REPORT_TEXT));

    const orderId = report.basedOn?.[0]?.reference?.replace('ServiceRequest/', '') ?? '';
    const [order] = await search<ServiceRequest>('ServiceRequest', { _id: orderId });
    expect(order).toMatchObject({ status: 'completed', requester: { reference: `Practitioner/${aliceId}` } });
    expect(Date.parse(order.authoredOn ?? '')).toBeLessThan(Date.parse(report.issued ?? ''));
  });

  it('counts what it wrote', async () => {
    const rows = await database().query<{ count: string }>(
      "SELECT count(*) AS count FROM resources WHERE project_id = $1 AND NOT deleted AND last_updated >= (SELECT last_updated FROM resources WHERE resource_type = 'Practitioner' AND id = $2)",
      [projectId, aliceId],
    );
    // Alice's Practitioner is the one resource written before the seed in that window.
    expect(summary.resources + clinic.questionnaireResources).toBe(Number(rows[0].count) - 1);
  });
});

/** What the tests below know of medicine, apart from the seed's own story data. */
const CONDITIONS = {
  hypertension: ['38341003', '59621000'],
  diabetes: ['44054006'],
  asthma: ['195967001', '233678006'],
  hayFever: ['367498001'],
} as const;
type ConditionName = keyof typeof CONDITIONS;
/** The condition each drug the demo may order is for (RxNorm). */
const TREATS: Record<string, ConditionName> = {
  '314076': 'hypertension', // lisinopril 10 MG
  '197361': 'hypertension', // amlodipine 5 MG
  '860975': 'diabetes', // metformin 500 MG extended release
  '745679': 'asthma', // albuterol inhaler
  '311372': 'hayFever', // loratadine 10 MG
};
/** What a care plan's title or a home device's name is about. */
const ABOUT: [RegExp, ConditionName][] = [
  [/hypertension|blood pressure/i, 'hypertension'],
  [/diabetes|glucose/i, 'diabetes'],
  [/asthma|peak flow/i, 'asthma'],
];
/** What a message's words are about. */
const MENTIONS: [RegExp, ConditionName][] = [
  [/blood pressure|lisinopril|amlodipine/i, 'hypertension'],
  [/sugar|metformin|HbA1c/i, 'diabetes'],
  [/inhaler|wheez/i, 'asthma'],
];
const NOT_FOR_CHILDREN: ConditionName[] = ['hypertension', 'diabetes'];
const PENICILLINS = /penicillin|amoxicillin|ampicillin/i;

interface Chart {
  name: string;
  patient: Patient;
  age: number;
  /** The chart's Problem List, current entries only (its own rule). */
  problems: Condition[];
  /** What the seed wrote as Alice (and the patient's devices and device requests). */
  alices: {
    conditions: Condition[];
    activeOrders: MedicationRequest[];
    carePlans: CarePlan[];
    devices: string[];
    allergies: AllergyIntolerance[];
  };
  record: { orders: MedicationRequest[]; allergies: AllergyIntolerance[] };
  /** The active care plans' names (title, or Synthea's category), the imported ones too. */
  activePlans: string[];
  messages: Communication[];
}

const codesOf = (resource: { code?: Condition['code'] }) => (resource.code?.coding ?? []).map((c) => c.code ?? '');
const isAbout = (condition: Condition, name: ConditionName) =>
  codesOf(condition).some((code) => (CONDITIONS[name] as readonly string[]).includes(code));
const hasProblem = (chart: Chart, name: ConditionName) => chart.problems.some((c) => isAbout(c, name));
const ageOf = (patient: Patient) => Math.floor((now.getTime() - Date.parse(patient.birthDate ?? '')) / (365.25 * DAY));

async function chartsOf({ projectId: project, aliceId: alice }: SeededClinic): Promise<Chart[]> {
  const byAlice = <T extends Resource>(resources: T[]) =>
    resources.filter((r) => authorOf(r)?.reference === `Practitioner/${alice}`);
  const charts: Chart[] = [];
  for (const patient of await patientsOf(project)) {
    const subject = `Patient/${patient.id}`;
    const conditions = await search<Condition>('Condition', { subject });
    const orders = await search<MedicationRequest>('MedicationRequest', { subject });
    const allergies = await search<AllergyIntolerance>('AllergyIntolerance', { patient: subject });
    const carePlans = await search<CarePlan>('CarePlan', { subject });
    const devices = [
      ...(await search<Device>('Device', { patient: subject })).map((d) => d.deviceName?.[0]?.name ?? ''),
      ...(await search<DeviceRequest>('DeviceRequest', { subject })).map((d) => d.codeCodeableConcept?.text ?? ''),
    ];
    charts.push({
      name: nameOf(patient),
      patient,
      age: ageOf(patient),
      problems: conditions.filter((c) => isProblemListEntry(c) && isCurrentCondition(c)),
      alices: {
        conditions: byAlice(conditions),
        activeOrders: byAlice(orders).filter((order) => order.status === 'active'),
        carePlans: byAlice(carePlans),
        devices,
        allergies: byAlice(allergies),
      },
      record: {
        orders: orders.filter((o) => !byAlice([o]).length),
        allergies: allergies.filter((a) => !byAlice([a]).length),
      },
      activePlans: carePlans
        .filter((plan) => plan.status === 'active')
        .map((plan) => plan.title ?? plan.category?.[0]?.coding?.[0]?.display ?? ''),
      messages: await search<Communication>('Communication', { subject }),
    });
  }
  return charts;
}

/** The newest systolic pressure of the patient, imported or seeded. */
async function latestSystolic(patientId: string): Promise<number | undefined> {
  const readings = await search<Observation>('Observation', {
    subject: `Patient/${patientId}`,
    code: BLOOD_PRESSURE.readCodes.map((code) => `http://loinc.org|${code}`).join(','),
    _sort: '-date',
    _count: '1',
  });
  return readings[0]?.component?.find((c) => c.code.coding?.some((coding) => coding.code === SYSTOLIC.code))
    ?.valueQuantity?.value;
}

describe('each patient’s story, told from their own record', { timeout: 120_000 }, () => {
  const clinics = () => [clinic, reordered];

  it('gives the patient account’s record the hypertension its vitals history shows, and amlodipine for it', async () => {
    for (const seeded of clinics()) {
      const wendy = (await chartsOf(seeded)).find((chart) => chart.name === 'Wendy Littel')!;
      expect(seeded.summary.vitalsPatientId).toBe(wendy.patient.id);
      expect(hasProblem(wendy, 'hypertension'), seeded.projectId).toBe(true);
      // 25 and on a combined pill (Trinessa): not an ACE inhibitor.
      expect(wendy.alices.activeOrders.map((o) => o.medicationCodeableConcept?.coding?.[0]?.code)).toEqual([
        AMLODIPINE.code,
      ]);
      // Diagnosed when the vitals history's readings were first above 140/90, a year ago.
      const [problem] = wendy.alices.conditions;
      expect(now.getTime() - Date.parse(problem.onsetDateTime ?? '')).toBeGreaterThan(300 * DAY);
      // The lifestyle trial from the diagnosis, then the follow-up plan of the drug, which replaces it.
      expect(wendy.alices.carePlans.map((plan) => [plan.title, plan.status]).sort()).toEqual([
        ['Hypertension follow-up plan', 'active'],
        ['Lifestyle changes for high blood pressure', 'completed'],
      ]);
    }
  });

  it('orders each patient only medicines for a problem on their problem list; no problem or plan twice', async () => {
    for (const seeded of clinics()) {
      for (const chart of await chartsOf(seeded)) {
        const context = `${chart.name} (${seeded.projectId})`;
        for (const order of chart.alices.activeOrders) {
          const treats = TREATS[order.medicationCodeableConcept?.coding?.[0]?.code ?? ''];
          expect(treats, `${context}: ${order.medicationCodeableConcept?.text}`).toBeDefined();
          expect(hasProblem(chart, treats), `${context}: ${treats}`).toBe(true);
          // The order names the problem as its reason.
          const reason = order.reasonReference?.[0]?.reference?.replace('Condition/', '');
          expect(
            chart.problems.find((c) => c.id === reason && isAbout(c, treats)),
            context,
          ).toBeDefined();
        }
        // The care plan and the home device are about a problem the patient has.
        for (const about of [...chart.alices.carePlans.map((plan) => plan.title ?? ''), ...chart.alices.devices]) {
          for (const [words, name] of ABOUT) {
            if (words.test(about)) expect(hasProblem(chart, name), `${context}: ${about}`).toBe(true);
          }
        }
        // Synthea's "Diabetes self management plan" is followed up, not written again by Alice.
        const plans = chart.activePlans.map((name) => name.toLowerCase().replace(/[^a-z]+/g, ' '));
        expect(plans, context).toEqual([...new Set(plans)]);
        // An imported hypertension is not listed again as the demo's "Essential hypertension".
        for (const name of Object.keys(CONDITIONS) as ConditionName[]) {
          expect(chart.problems.filter((c) => isAbout(c, name)).length, `${context}: ${name}`).toBeLessThanOrEqual(1);
        }
      }
    }
  });

  it('tells no child an adult’s story', async () => {
    for (const seeded of clinics()) {
      const charts = await chartsOf(seeded);
      const children = charts.filter((chart) => chart.age < 18);
      expect(children.map((chart) => chart.name).sort()).toEqual(['Ava Brennan', 'Noah Brennan']);
      for (const child of children) {
        // What the seed's problems, orders and care plans are about.
        const told: (ConditionName | undefined)[] = [
          ...child.alices.conditions.flatMap((c) => NOT_FOR_CHILDREN.filter((name) => isAbout(c, name))),
          ...child.alices.activeOrders.map((o) => TREATS[o.medicationCodeableConcept?.coding?.[0]?.code ?? '']),
          ...child.alices.carePlans.flatMap((plan) =>
            ABOUT.filter(([words]) => words.test(plan.title ?? '')).map(([, name]) => name),
          ),
        ];
        expect(
          told.filter((name) => name !== undefined && NOT_FOR_CHILDREN.includes(name)),
          child.name,
        ).toEqual([]);
      }
      // Ava's own childhood asthma is her story: her reliever and action plan, no second asthma.
      const ava = children.find((chart) => chart.name === 'Ava Brennan')!;
      expect(ava.alices.activeOrders.map((o) => o.medicationCodeableConcept?.coding?.[0]?.code)).toEqual(['745679']);
      expect(ava.alices.carePlans.map((plan) => plan.title)).toEqual(['Asthma action plan']);
      expect(ava.alices.conditions).toEqual([]);
    }
  });

  it('adds no allergy the record contradicts', async () => {
    for (const seeded of clinics()) {
      for (const chart of await chartsOf(seeded)) {
        const tookPenicillin = chart.record.orders.some((o) =>
          PENICILLINS.test(o.medicationCodeableConcept?.text ?? ''),
        );
        for (const allergy of chart.alices.allergies) {
          if (tookPenicillin) expect(allergy.code?.text, chart.name).not.toMatch(/penicillin/i);
          const recorded = chart.record.allergies.flatMap((a) => codesOf(a));
          expect(recorded, chart.name).not.toContain(codesOf(allergy)[0]);
        }
      }
    }
    // Geoffrey Abbott's record has amoxicillin with clavulanate twice.
    const geoffrey = (await chartsOf(reordered)).find((chart) => chart.name === 'Geoffrey Abbott')!;
    expect(geoffrey.record.orders.some((o) => PENICILLINS.test(o.medicationCodeableConcept?.text ?? ''))).toBe(true);
  });

  it('has one urgent patient, whose readings are up, and writes about the problem each patient has', async () => {
    for (const seeded of clinics()) {
      const charts = await chartsOf(seeded);
      const urgent = charts.flatMap((chart) => chart.messages.filter((m) => m.priority === 'urgent'));
      expect(urgent).toHaveLength(1);
      const patientId = urgent[0].subject?.reference?.replace('Patient/', '') ?? '';
      const chart = charts.find((c) => c.patient.id === patientId)!;
      expect(urgent[0].payload?.[0]?.contentString).toMatch(/blood pressure readings are above 160/);
      expect(hasProblem(chart, 'hypertension')).toBe(true);
      expect(await latestSystolic(patientId), chart.name).toBeGreaterThanOrEqual(140);
      // The stat order and the urgent task are the same patient's.
      const inClinic = <T extends Resource>(resources: T[]) => inProject(resources, seeded.projectId);
      const stat = inClinic(await search<ServiceRequest>('ServiceRequest', { priority: 'stat' }));
      expect(stat.map((order) => order.subject?.reference)).toEqual([`Patient/${patientId}`]);
      const tasks = inClinic(await search<Task>('Task', { priority: 'urgent' }));
      expect(tasks.map((task) => task.for?.reference)).toEqual([`Patient/${patientId}`]);

      for (const each of charts) {
        for (const message of each.messages) {
          const text = message.payload?.[0]?.contentString ?? '';
          for (const [words, name] of MENTIONS) {
            if (words.test(text)) expect(hasProblem(each, name), `${each.name}: ${text}`).toBe(true);
          }
        }
      }
    }
  });

  it('gives the menopause-service visit note to a woman of menopausal age', async () => {
    for (const seeded of clinics()) {
      const charts = await chartsOf(seeded);
      const [note] = inProject(
        await search<Task>('Task', {
          code: `${MENOPAUSE_NOTE_TASK_CODE.coding?.[0]?.system}|${MENOPAUSE_NOTE_TASK_CODE.coding?.[0]?.code}`,
        }),
        seeded.projectId,
      );
      const patient = charts.find((chart) => note.for?.reference === `Patient/${chart.patient.id}`)!;
      expect(patient.patient.gender, seeded.projectId).toBe('female');
      const ofAge = charts.filter((chart) => chart.patient.gender === 'female' && chart.age >= 45 && chart.age <= 65);
      if (ofAge.length > 0) expect(ofAge.map((chart) => chart.name)).toContain(patient.name);
    }
  });

  it('tells the same story about the same record whatever its random id', async () => {
    const storiesOf = async ({ projectId: project, aliceId: alice }: SeededClinic) => {
      const patients = await patientsOf(project);
      const labels = new Map(patients.map((patient) => [patient.id ?? '', nameOf(patient)]));
      // Everything the seed wrote (from Alice on), with ids and metadata taken out.
      const rows = await database().query<{ content: Resource }>(
        "SELECT content FROM resources WHERE project_id = $1 AND NOT deleted AND id <> $2 AND last_updated >= (SELECT last_updated FROM resources WHERE resource_type = 'Practitioner' AND id = $2)",
        [project, alice],
      );
      const byPatient = new Map<string, string[]>();
      for (const { content } of rows) {
        const { id: _id, meta: _meta, ...rest } = content;
        let text = JSON.stringify(rest);
        let owner = '';
        for (const [id, label] of labels) {
          if (!text.includes(id)) continue;
          owner ||= label;
          text = text.split(id).join(label);
        }
        // Other references: to what the seed or the import created, under random ids.
        text = text.replace(/"(\w+)\/[0-9a-f-]{36}"/g, '"$1/…"');
        byPatient.set(owner, [...(byPatient.get(owner) ?? []), text].sort());
      }
      return Object.fromEntries([...byPatient].sort(([a], [b]) => a.localeCompare(b)));
    };
    // Sanity: the two clinics' patients are in different _id orders.
    const idOrder = async (project: string) =>
      inProject(await search<Patient>('Patient', { _sort: '_id' }), project).map(nameOf);
    expect(await idOrder(projectId)).not.toEqual(await idOrder(reorderedProjectId));

    const [first, second] = [await storiesOf(clinic), await storiesOf(reordered)];
    expect(Object.keys(first).sort()).toEqual(Object.keys(second).sort());
    for (const name of Object.keys(first)) expect(second[name], name).toEqual(first[name]);
  });
  it('starts each hypertensive patient on the drug that suits them, and names no other drug in their story', async () => {
    const drugs = [LISINOPRIL, AMLODIPINE];
    const firstWord = (display: string) => display.split(' ')[0].toLowerCase();
    for (const seeded of clinics()) {
      const charts = await chartsOf(seeded);
      const started = charts.flatMap((chart) =>
        chart.alices.activeOrders
          .filter((o) => TREATS[o.medicationCodeableConcept?.coding?.[0]?.code ?? ''] === 'hypertension')
          .map((order) => ({ chart, order })),
      );
      expect(started.map(({ chart }) => chart.name).sort(), seeded.projectId).toEqual([
        'Geoffrey Abbott',
        'Lemuel Hodkiewicz',
        'Wendy Littel',
      ]);
      for (const { chart, order } of started) {
        const drug = antihypertensiveFor(chart.patient, now);
        expect(order.medicationCodeableConcept?.coding?.[0], chart.name).toMatchObject({ code: drug.code });
        // What Alice writes them and plans with them names that drug, never the other one.
        const written = [
          ...chart.messages.filter((m) => m.sender?.reference?.startsWith('Practitioner/')),
          ...chart.alices.carePlans,
        ].map((resource) => JSON.stringify(resource).toLowerCase());
        const other = drugs.find((d) => d !== drug)!;
        expect(written.join('\n'), chart.name).toContain(firstWord(drug.display));
        expect(written.join('\n'), chart.name).not.toContain(firstWord(other.display));
      }
      // The medication history's patient: his history leads to lisinopril, his current order.
      const lemuel = started.find(({ chart }) => chart.name === 'Lemuel Hodkiewicz')!;
      expect(lemuel.chart.patient.id).toBe(seeded.summary.historyPatientId);
      expect(lemuel.order.medicationCodeableConcept?.coding?.[0]?.code).toBe(LISINOPRIL.code);
    }
  });

  it('continues the vitals patient’s own height and weight, so the sidebar’s trends go on from the record', async () => {
    for (const seeded of clinics()) {
      const patientId = seeded.summary.vitalsPatientId!;
      const bodySize = await search<Observation>('Observation', {
        subject: `Patient/${patientId}`,
        code: 'http://loinc.org|8302-2,http://loinc.org|29463-7,http://loinc.org|39156-5',
      });
      const seededByAlice = (o: Observation) => authorOf(o)?.reference === `Practitioner/${seeded.aliceId}`;
      const series = (code: string, seededOnes: boolean) =>
        bodySize
          .filter((o) => o.code?.coding?.[0]?.code === code && seededByAlice(o) === seededOnes)
          .sort((a, b) => Date.parse(a.effectiveDateTime ?? '') - Date.parse(b.effectiveDateTime ?? ''))
          .map((o) => o.valueQuantity?.value as number);
      const [recordHeight, recordWeight] = [series('8302-2', false).at(-1)!, series('29463-7', false).at(-1)!];
      // Wendy Littel's last visit in her record: 165.8 cm, 68.5 kg.
      expect([recordHeight, recordWeight].map((value) => Math.round(value * 10) / 10)).toEqual([165.8, 68.5]);
      const [heights, weights, bmis] = [series('8302-2', true), series('29463-7', true), series('39156-5', true)];
      expect(heights).toHaveLength(12);
      expect(new Set(heights)).toEqual(new Set([Math.round(recordHeight * 10) / 10]));
      expect(weights[0]).toBeCloseTo(recordWeight, 1);
      for (const [visit, weight] of weights.entries()) {
        if (visit > 0) expect(Math.abs(weight - weights[visit - 1]), `visit ${visit}`).toBeLessThan(1.5);
        expect(bmis[visit]).toBeCloseTo(weight / (heights[visit] / 100) ** 2, 1);
      }

      // What the summary's vitals section loads and draws (its own search and reading rule).
      const [query] = summarySearches(patientId, now.toISOString().slice(0, 10), { openTasks: false })
        .filter((part) => part.part === 'observations')
        .map((part) => part.query as Record<string, string>);
      const readings = vitalReadings(await search<Observation>('Observation', query));
      const drawn = (key: 'height' | 'weight' | 'bmi') =>
        (readings.get(key) ?? []).slice(-SPARKLINE_READINGS).map((reading) => reading.value);
      expect(drawn('height')).toHaveLength(SPARKLINE_READINGS);
      for (const height of drawn('height')) expect(Math.abs(height - recordHeight)).toBeLessThan(0.1);
      for (const weight of drawn('weight')) expect(Math.abs(weight - recordWeight)).toBeLessThan(2);
      for (const bmi of drawn('bmi')) expect(Math.abs(bmi - recordWeight / (recordHeight / 100) ** 2)).toBeLessThan(1);
    }
  });

  it('gives every completed lab order its report and results, and the review task that report', async () => {
    for (const seeded of clinics()) {
      const inClinic = <T extends Resource>(resources: T[]) => inProject(resources, seeded.projectId);
      const orders = inClinic(
        await search<ServiceRequest>('ServiceRequest', { category: LAB_PROCEDURE_CATEGORY.code }),
      ).filter((order) => order.requester?.reference === `Practitioner/${seeded.aliceId}`);
      const reports = inClinic(await search<DiagnosticReport>('DiagnosticReport', {}));
      const tasks = inClinic(await search<Task>('Task', {}));
      const completed = orders.filter((order) => order.status === 'completed');
      expect(completed, seeded.projectId).toHaveLength(3);
      for (const order of orders) {
        const context = `${order.subject?.reference} ${order.code?.text}`;
        const answering = reports.filter((r) => r.basedOn?.some((b) => b.reference === `ServiceRequest/${order.id}`));
        const review = tasks.filter(
          (task) => task.for?.reference === order.subject?.reference && /^Review lab/.test(task.code?.text ?? ''),
        );
        expect(review, context).toHaveLength(1);
        if (order.status !== 'completed') {
          expect(answering, context).toEqual([]);
          expect(review[0], context).toMatchObject({
            code: { text: 'Review lab order' },
            focus: { reference: `ServiceRequest/${order.id}` },
          });
          continue;
        }
        expect(answering, context).toHaveLength(1);
        const [report] = answering;
        expect(report, context).toMatchObject({
          status: 'final',
          subject: order.subject,
          code: { coding: [expect.objectContaining({ code: order.code?.coding?.[0]?.code })] },
        });
        expect(Date.parse(report.effectiveDateTime ?? '')).toBeGreaterThan(Date.parse(order.authoredOn ?? ''));
        expect(Date.parse(report.issued ?? '')).toBeLessThan(now.getTime());
        expect(review[0], context).toMatchObject({
          code: { text: 'Review lab results' },
          focus: { reference: `DiagnosticReport/${report.id}` },
        });
        expect(Date.parse(review[0].authoredOn ?? '')).toBeGreaterThanOrEqual(Date.parse(report.issued ?? ''));

        const ids = (report.result ?? []).map((r) => r.reference?.replace('Observation/', '') ?? '');
        expect(ids.length, context).toBeGreaterThan(0);
        const results = await search<Observation>('Observation', { _id: ids.join(',') });
        expect(results.map((o) => o.id).sort()).toEqual([...ids].sort());
        for (const result of results) {
          const name = `${context}: ${result.code?.text}`;
          expect(result, name).toMatchObject({
            status: 'final',
            subject: order.subject,
            basedOn: [{ reference: `ServiceRequest/${order.id}` }],
            category: [{ coding: [expect.objectContaining({ code: 'laboratory' })] }],
            code: { coding: [expect.objectContaining({ system: 'http://loinc.org' })] },
          });
          expect(typeof result.valueQuantity?.value, name).toBe('number');
          const [range] = result.referenceRange ?? [];
          expect(range?.low ?? range?.high, name).toBeDefined();
          const flag = result.interpretation?.[0]?.coding?.[0];
          expect(flag?.system, name).toBe('http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation');
          const value = result.valueQuantity?.value as number;
          const expected =
            range.low?.value !== undefined && value < range.low.value
              ? 'L'
              : range.high?.value !== undefined && value > range.high.value
                ? 'H'
                : 'N';
          expect(flag?.code, name).toBe(expected);
        }
        // The report names its results, as the timeline's summary of it lists them.
        expect((report.result ?? []).every((r) => r.display)).toBe(true);
      }
      // Three of the nine patients' orders are done: Noah's blood count, Lemuel's and Wendy's panels.
      expect(completed.map((order) => order.code?.text).sort(), seeded.projectId).toEqual([
        'Basic metabolic panel',
        'Basic metabolic panel',
        'Complete blood count',
      ]);
    }
  });
});

describe('the vitals history, as a clinician reads it', { timeout: 120_000 }, () => {
  const clinics = () => [clinic, reordered];
  const codeOf = (o: Observation) => o.code?.coding?.[0]?.code;
  const dayOf = (instant: string | undefined) => (instant ?? '').slice(0, 10);
  const componentValue = (o: Observation, code: string) =>
    o.component?.find((c) => c.code.coding?.some((coding) => coding.code === code))?.valueQuantity?.value as number;

  /** Wendy's chart: the vitals the seed wrote as Alice, oldest first, and her story's amlodipine order. */
  async function wendyOf(seeded: SeededClinic) {
    const wendy = (await chartsOf(seeded)).find((chart) => chart.name === 'Wendy Littel')!;
    const subject = `Patient/${wendy.patient.id}`;
    const vitals = (await search<Observation>('Observation', { subject, category: 'vital-signs', _count: '1000' }))
      .filter((o) => authorOf(o)?.reference === `Practitioner/${seeded.aliceId}`)
      .sort((a, b) => Date.parse(a.effectiveDateTime ?? '') - Date.parse(b.effectiveDateTime ?? ''));
    const amlodipine = wendy.alices.activeOrders.find(
      (o) => o.medicationCodeableConcept?.coding?.[0]?.code === AMLODIPINE.code,
    )!;
    return { wendy, subject, vitals, amlodipine };
  }

  it('asks Alice to review a combined pill when she starts the blood pressure drug, and stops nothing', async () => {
    for (const seeded of clinics()) {
      const { wendy, subject } = await wendyOf(seeded);
      const reviews = inProject(await search<Task>('Task', {}), seeded.projectId).filter(
        (task) => task.code?.text === 'Review contraception',
      );
      // Wendy, on Trinessa, is the one hypertensive patient on a combined pill: no one else gets the task.
      expect(
        reviews.map((task) => task.for?.reference),
        seeded.projectId,
      ).toEqual([subject]);
      const [review] = reviews;
      expect(review).toMatchObject({
        status: 'ready',
        owner: { reference: `Practitioner/${seeded.aliceId}` },
        requester: { reference: `Practitioner/${seeded.aliceId}` },
      });
      expect(review.description).toMatch(/^Review contraception: combined pill \(Trinessa 28 Day Pack\) with high/);
      expect(review.description).toMatch(/offer a progestin-only or non-hormonal method/);
      // Its reason is the hypertension on her problem list; its focus, her pill, still taken.
      const reason = review.reasonReference?.reference?.replace('Condition/', '');
      expect(wendy.problems.find((c) => c.id === reason && isAbout(c, 'hypertension'))).toBeDefined();
      const pillId = review.focus?.reference?.replace('MedicationRequest/', '') ?? '';
      const [pill] = await search<MedicationRequest>('MedicationRequest', { _id: pillId });
      expect(pill.medicationCodeableConcept?.text).toBe('Trinessa 28 Day Pack');
      expect(pill.status).toBe('active');
      expect(Date.parse(review.restriction?.period?.end ?? '')).toBeGreaterThan(now.getTime());
      // The care plan says it too.
      const plan = wendy.alices.carePlans.find((each) => each.status === 'active')!;
      expect(plan.description).toMatch(/Trinessa 28 Day Pack/);
      expect(plan.description).toMatch(/progestin-only or non-hormonal/);
    }
  });

  it('has her blood pressure raised until the drug is started, in whole mmHg', async () => {
    for (const seeded of clinics()) {
      const { wendy, vitals, amlodipine } = await wendyOf(seeded);
      const pressures = vitals.filter((o) => codeOf(o) === BLOOD_PRESSURE.code);
      expect(pressures).toHaveLength(12);
      const started = dayOf(amlodipine.authoredOn);
      for (const reading of pressures) {
        const [systolic, diastolic] = [componentValue(reading, SYSTOLIC.code), componentValue(reading, DIASTOLIC.code)];
        const context = `${reading.effectiveDateTime}: ${systolic}/${diastolic}`;
        expect(Number.isInteger(systolic) && Number.isInteger(diastolic), context).toBe(true);
        if (dayOf(reading.effectiveDateTime) <= started) {
          expect(systolic, context).toBeGreaterThanOrEqual(140);
          expect(systolic, context).toBeLessThanOrEqual(155);
          expect(diastolic, context).toBeGreaterThanOrEqual(88);
          expect(diastolic, context).toBeLessThanOrEqual(98);
        } else {
          expect(systolic, context).toBeLessThan(140);
        }
      }
      // Amlodipine is started at the last of those visits; the hypertension dates from the second.
      expect(dayOf(pressures.at(-1)?.effectiveDateTime)).toBe(started);
      const [problem] = wendy.alices.conditions;
      expect(dayOf(problem.onsetDateTime)).toBe(dayOf(pressures[1].effectiveDateTime));
    }
  });

  it('diagnoses her hypertension at a visit that exists, and tries lifestyle changes until the drug', async () => {
    for (const seeded of clinics()) {
      const { wendy, subject, vitals, amlodipine } = await wendyOf(seeded);
      const pressures = vitals.filter((o) => codeOf(o) === BLOOD_PRESSURE.code);
      const [problem] = wendy.alices.conditions;
      // The Condition names the visit of the second raised reading (the confirming one), which took place.
      const diagnosisVisit = pressures[1].encounter?.reference;
      expect(problem.encounter?.reference, seeded.projectId).toBe(diagnosisVisit);
      const [encounter] = await search<Encounter>('Encounter', {
        _id: diagnosisVisit?.replace('Encounter/', '') ?? '',
      });
      expect(encounter).toMatchObject({
        status: 'finished',
        subject: { reference: subject },
        type: [{ text: 'Blood pressure check' }],
        reasonReference: [{ reference: `Condition/${problem.id}` }],
      });
      expect(dayOf(encounter.period?.start)).toBe(dayOf(problem.onsetDateTime));
      expect(dayOf(problem.recordedDate)).toBe(dayOf(problem.onsetDateTime));
      // Both readings that made the diagnosis are 140/90 or more.
      for (const reading of pressures.slice(0, 2)) {
        expect(componentValue(reading, SYSTOLIC.code)).toBeGreaterThanOrEqual(140);
        expect(componentValue(reading, DIASTOLIC.code)).toBeGreaterThanOrEqual(90);
      }

      // The months between diagnosis and drug are a documented lifestyle trial, ended by the drug.
      const trial = wendy.alices.carePlans.find((plan) => plan.status === 'completed')!;
      expect(trial, seeded.projectId).toMatchObject({
        title: 'Lifestyle changes for high blood pressure',
        intent: 'plan',
        addresses: [{ reference: `Condition/${problem.id}` }],
        encounter: { reference: diagnosisVisit },
        author: { reference: `Practitioner/${seeded.aliceId}` },
      });
      expect(trial.period?.start).toBe(dayOf(problem.onsetDateTime));
      expect(trial.period?.end).toBe(dayOf(amlodipine.authoredOn));
      expect(trial.description).toMatch(/salt/);
      expect(trial.note?.[0]?.text).toMatch(/^Readings still 140\/90 or more after 10 months/);
      const followUp = wendy.alices.carePlans.find((plan) => plan.status === 'active')!;
      expect(followUp.replaces).toEqual([{ reference: `CarePlan/${trial.id}` }]);
      expect(followUp.period?.start).toBe(dayOf(amlodipine.authoredOn));
      // Every reading of the trial is a check of the diagnosed hypertension, still raised.
      const during = pressures.filter((o) => dayOf(o.effectiveDateTime) >= (trial.period?.start ?? ''));
      expect(during).toHaveLength(11);
      for (const reading of during) expect(componentValue(reading, SYSTOLIC.code)).toBeGreaterThanOrEqual(140);
    }
  });

  it('keeps her temperature, pulse, breathing and oxygen those of a well outpatient', async () => {
    const ranges: Record<string, [number, number]> = {
      '8310-5': [36.3, 37.3], // temperature, °C
      '8867-4': [55, 100], // heart rate
      '9279-1': [12, 20], // respiratory rate
      '2708-6': [95, 99], // SpO₂
    };
    for (const seeded of clinics()) {
      const { vitals } = await wendyOf(seeded);
      for (const [code, [low, high]] of Object.entries(ranges)) {
        const values = vitals.filter((o) => codeOf(o) === code).map((o) => o.valueQuantity?.value as number);
        expect(values, code).toHaveLength(12);
        for (const value of values) {
          expect(value, code).toBeGreaterThanOrEqual(low);
          expect(value, code).toBeLessThanOrEqual(high);
        }
        if (code === '8310-5') {
          for (let visit = 1; visit < values.length; visit++) {
            expect(Math.abs(values[visit] - values[visit - 1]), `temperature at visit ${visit}`).toBeLessThanOrEqual(
              0.5,
            );
          }
        }
      }
    }
  });

  it('records each vitals visit as a finished visit with Alice, which the summary counts', async () => {
    for (const seeded of clinics()) {
      const { wendy, subject, vitals } = await wendyOf(seeded);
      expect(vitals).toHaveLength(96);
      const ids = [...new Set(vitals.map((o) => o.encounter?.reference?.replace('Encounter/', '') ?? ''))];
      expect(ids).toHaveLength(12);
      const encounters = await search<Encounter>('Encounter', { _id: ids.join(',') });
      expect(encounters.map((e) => e.id).sort()).toEqual([...ids].sort());
      for (const reading of vitals) {
        const encounter = encounters.find((e) => reading.encounter?.reference === `Encounter/${e.id}`)!;
        const context = `${reading.code?.text} ${reading.effectiveDateTime}`;
        expect(encounter, context).toMatchObject({
          status: 'finished',
          class: { code: 'AMB' },
          subject: { reference: subject },
          participant: [{ individual: { reference: `Practitioner/${seeded.aliceId}` } }],
        });
        expect(dayOf(encounter.period?.start), context).toBe(dayOf(reading.effectiveDateTime));
        expect(Date.parse(encounter.period?.end ?? ''), context).toBeGreaterThan(
          Date.parse(encounter.period?.start ?? ''),
        );
      }
      const types = encounters
        .sort((a, b) => Date.parse(a.period?.start ?? '') - Date.parse(b.period?.start ?? ''))
        .map((e) => e.type?.[0]?.text);
      expect(types).toEqual(['Follow-up visit', ...Array<string>(11).fill('Blood pressure check')]);
      // The last is the booked visit of three weeks ago, now fulfilled.
      const appointmentId = encounters.at(-1)?.appointment?.[0]?.reference?.replace('Appointment/', '') ?? '';
      const [appointment] = await search<Appointment>('Appointment', { _id: appointmentId });
      expect(appointment).toMatchObject({ status: 'fulfilled', description: 'Blood pressure check' });

      // "N documented visits": the summary's own search finds her record's visits and these.
      const [query] = summarySearches(wendy.patient.id ?? '', now.toISOString().slice(0, 10), { openTasks: false })
        .filter((part) => part.part === 'visits')
        .map((part) => part.query as Record<string, string>);
      const visits = await search<Encounter>('Encounter', { ...query, _count: '1000' });
      expect(visits.filter((e) => ids.includes(e.id ?? ''))).toHaveLength(12);
    }
  });

  it('documents every patient’s visit of three weeks ago, where the story’s drug was started', async () => {
    for (const seeded of clinics()) {
      for (const chart of await chartsOf(seeded)) {
        const subject = `Patient/${chart.patient.id}`;
        // Not the follow-up seen on the day of the seed (one patient's).
        const [past] = (await search<Appointment>('Appointment', { patient: subject, status: 'fulfilled' })).filter(
          (a) => a.meta?.project === seeded.projectId && Date.parse(a.start ?? '') < now.getTime() - DAY,
        );
        const visits = (await search<Encounter>('Encounter', { subject, status: 'finished' })).filter((e) =>
          e.appointment?.some((a) => a.reference === `Appointment/${past.id}`),
        );
        expect(visits, chart.name).toHaveLength(1);
        const [visit] = visits;
        expect(visit, chart.name).toMatchObject({
          type: [{ text: past.description }],
          participant: [{ individual: { reference: `Practitioner/${seeded.aliceId}` } }],
          period: { start: past.start },
        });
        // The drug the story starts is prescribed at that visit.
        for (const order of chart.alices.activeOrders)
          expect(dayOf(order.authoredOn), chart.name).toBe(dayOf(past.start));
        // A hypertensive patient's check has its reading, in whole mmHg: raised where the drug is
        // started; at target where the history's lisinopril is renewed at the same dose.
        if (past.description !== 'Blood pressure check') continue;
        const [reading] = await search<Observation>('Observation', {
          encounter: `Encounter/${visit.id}`,
          code: BLOOD_PRESSURE.code,
        });
        const [systolic, diastolic] = [componentValue(reading, SYSTOLIC.code), componentValue(reading, DIASTOLIC.code)];
        expect(Number.isInteger(systolic) && Number.isInteger(diastolic), chart.name).toBe(true);
        if (chart.patient.id === seeded.summary.historyPatientId) {
          expect(systolic < 130 && diastolic < 80, `${chart.name}: ${systolic}/${diastolic}`).toBe(true);
        } else {
          expect(systolic >= 140 && diastolic >= 88, `${chart.name}: ${systolic}/${diastolic}`).toBe(true);
        }
      }
    }
  });
});

describe('the day of the first start at the clinic', { timeout: 60_000 }, () => {
  // The seed places the day on this process's clock, as Here today reads the browser's.
  const day = clinicDay(now, -now.getTimezoneOffset());
  const { start: midnight, end: nextMidnight } = localDayBounds(now);
  const isToday = (appointment: Appointment) =>
    Date.parse(appointment.start ?? '') >= midnight.getTime() &&
    Date.parse(appointment.start ?? '') < nextMidnight.getTime();
  const patientOf = (appointment: Appointment) =>
    appointment.participant.find((p) => p.actor?.reference?.startsWith('Patient/'))?.actor?.reference;
  const urgentPatientOf = async (seeded: SeededClinic) =>
    inProject(await search<Communication>('Communication', {}), seeded.projectId).find(
      (message) => message.priority === 'urgent',
    )?.subject?.reference;

  it("has the patient account's patient waiting, as Here today's own search finds her", async () => {
    for (const seeded of [clinic, reordered]) {
      const found = await repository.transaction((session) =>
        session.search(parseSearchRequest('Appointment', hereTodaySearch(now), session.registry)),
      );
      const here = inProject(found.resources as Appointment[], seeded.projectId);
      expect(here, seeded.projectId).toHaveLength(1);
      const [visit] = here;
      const wendy = (await patientsOf(seeded.projectId)).find((patient) => nameOf(patient) === 'Wendy Littel')!;
      expect(visit).toMatchObject({ status: 'arrived', description: 'Follow-up visit' });
      expect(patientOf(visit)).toBe(`Patient/${wendy.id}`);
      expect(visit.participant.map((p) => p.actor?.reference)).toContain(`Practitioner/${seeded.aliceId}`);
      // With the names the row shows (the search's _include).
      expect(found.included.map((r) => `${r.resourceType}/${r.id}`)).toContain(`Practitioner/${seeded.aliceId}`);
      expect(visit.start).toBe(day.arrived?.start.toISOString());
      // Booked, then checked in at the desk (Ben): the arrival is the version that set it.
      const history = await repository.transaction((session) =>
        session.history({ resourceType: 'Appointment', id: visit.id, count: 10, offset: 0 }),
      );
      const versions = history.records.map((record) => record.resource as Appointment);
      expect(versions.map((version) => version.status).sort()).toEqual(['arrived', 'booked']);
      const arrived = versions.find((version) => version.status === 'arrived')!;
      expect(authorOf(arrived)?.display).toBe('Ben Okafor');
      expect(arrivalTime(visit, versions)).toBe(arrived.meta?.lastUpdated);
      // Written when the seed ran, which is when she came in: never after the time the row shows as now.
      expect(Date.parse(arrived.meta?.lastUpdated ?? '')).toBeLessThanOrEqual(Date.now());
    }
  });

  it('has one patient later today for the desk to check in, and one seen earlier, with the visit documented', async () => {
    for (const seeded of [clinic, reordered]) {
      const appointments = inProject(
        await search<Appointment>('Appointment', { actor: `Practitioner/${seeded.aliceId}` }),
        seeded.projectId,
      );
      const today = appointments.filter(isToday);
      const expected = [day.arrived && 'arrived', day.later && 'booked', day.earlier && 'fulfilled'].filter(Boolean);
      expect(today.map((a) => a.status).sort(), seeded.projectId).toEqual(expected.sort());
      // Three patients, none of them the urgent one (whose "should I come in sooner?" awaits Alice's answer).
      const patients = new Set(today.map(patientOf));
      expect(patients.size).toBe(today.length);
      expect(patients.has(await urgentPatientOf(seeded))).toBe(false);
      const later = today.find((a) => a.status === 'booked');
      if (later) expect(later.start).toBe(day.later?.start.toISOString());
      const earlier = today.find((a) => a.status === 'fulfilled');
      if (earlier) {
        expect(earlier.start).toBe(day.earlier?.start.toISOString());
        expect(Date.parse(earlier.end ?? '')).toBeLessThanOrEqual(now.getTime());
        const visits = (
          await search<Encounter>('Encounter', { subject: patientOf(earlier) ?? '', status: 'finished' })
        ).filter((e) => e.appointment?.some((a) => a.reference === `Appointment/${earlier.id}`));
        expect(visits).toHaveLength(1);
        expect(visits[0]).toMatchObject({
          type: [{ text: 'Follow-up visit' }],
          period: { start: earlier.start },
          participant: [{ individual: { reference: `Practitioner/${seeded.aliceId}` } }],
        });
      }
      // Every patient keeps one follow-up visit: today's, or on its later day.
      const followUps = appointments.filter((a) => a.description === 'Follow-up visit');
      expect(followUps.length).toBe((await patientsOf(seeded.projectId)).length);
      expect(new Set(followUps.map(patientOf)).size).toBe(followUps.length);
    }
  });
});
