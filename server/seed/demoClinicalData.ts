import type {
  AllergyIntolerance,
  CarePlan,
  Condition,
  MedicationRequest,
  Observation,
  Patient,
  Practitioner,
  ProjectMembership,
  Reference,
  Resource,
} from '@medplum/fhirtypes';
import type { RepositorySession, RequestContext } from '../fhir/repository';
import { parseSearchRequest } from '../search/searchRequest';
import { BinaryStorage, createBinary } from '../binary';
import { systemAuthor } from '../definitions/loadDefinitions';
import { LAB_PROCEDURE_CATEGORY } from '../../config/clinical/chartTabs';
import { CONDITION_CLINICAL_STATUS_SYSTEM, PROBLEM_LIST_CATEGORY } from '../../config/clinical/problemList';
import {
  BLOOD_PRESSURE,
  DIASTOLIC,
  LOINC_SYSTEM,
  SINGLE_VITALS,
  SYSTOLIC,
  UCUM_SYSTEM,
  VITAL_SIGNS_CATEGORY,
  type VitalKey,
} from '../../config/clinical/vitals';
import { hypertensionStoryPatient, seedHypertensionStory } from './demoHypertensionHistory';
import { isHypertensionStory } from './demoClinicalStories';
import { chooseStory, listedProblemOf, recordedPlanOf } from './demoStoryChoice';
import { allergyFor } from './demoAllergyChoice';
import { inRecordOrder, isAdultOn, isTaking, type PatientRecord } from './demoPatientRecord';
import { ageInYears, bodySizeSeries, latestBodySize } from './demoBodySize';
import { labResultsFor, seedLabReport } from './demoLabResults';

const SNOMED = 'http://snomed.info/sct';
const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const DAY = 24 * 60 * 60 * 1000;
/** The vitals history's monthly visits (seedVitalsHistory): the first is this many days ago. */
const VITALS_VISITS = 12;
/** The hypertension of the vitals history's patient, diagnosed at its second visit above 140/90. */
const VITALS_HYPERTENSION_ONSET = -30 * (VITALS_VISITS - 1);
/** LOINC body height and body weight: what the vitals history's height and weight continue from. */
const BODY_SIZE_CODES = ['8302-2', '29463-7'];

export interface DemoClinicalSummary {
  resources: number;
  /** The patient with the long vitals history (the patient account's own record). */
  vitalsPatientId?: string;
  /** The patient with the long medication history and the echocardiogram report (demoHypertensionHistory.ts). */
  historyPatientId?: string;
}

// A one-page PDF ("Discharge summary"), small enough to write here; shown inline by the chart.
const DISCHARGE_PDF = [
  '%PDF-1.4',
  '1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj',
  '2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj',
  '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 200]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj',
  '4 0 obj<</Length 88>>stream',
  'BT /F1 18 Tf 40 150 Td (Discharge summary - Demo Clinic) Tj 0 -30 Td (Stable, follow up in 2 weeks.) Tj ET',
  'endstream endobj',
  '5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj',
  'trailer<</Root 1 0 R>>',
  '%%EOF',
].join('\n');

// The seed's references point at resources of the right type by construction: typed loosely.
const ref = (resource: Resource, display?: string): Reference<never> => ({
  reference: `${resource.resourceType}/${resource.id}`,
  ...(display ? { display } : {}),
});

function conditionName({ code }: Condition): string | undefined {
  return code?.text ?? code?.coding?.[0]?.display;
}

function patientName(patient: Patient): string {
  const name = patient.name?.[0];
  return [...(name?.given ?? []), name?.family].filter(Boolean).join(' ');
}

/**
 * What makes every chart tab show something on a fresh start (issue 15), as one coherent story per
 * patient (demoClinicalStories.ts) chosen from their own imported record: for each of the clinic's
 * patients tasks, messages, appointments, a lab order, a device or a device request, documents, a
 * care plan, an allergy, the story's problem (unless the record lists it already) and medication; for
 * the patient account's own record a long vitals history, and the hypertension that goes with it.
 * Nothing depends on the random ids: the same record gets the same story on every fresh start. Dates
 * are relative to `now`, so "upcoming" stays upcoming whenever the demo is started.
 */
export async function seedDemoClinicalData(
  session: RepositorySession,
  options: { projectId: string; dataDir: string; now?: Date },
): Promise<DemoClinicalSummary> {
  const ctx: RequestContext = { projectId: options.projectId, author: systemAuthor };
  const now = options.now ?? new Date();
  const at = (days: number, hour = 9) => {
    const date = new Date(now.getTime() + days * DAY);
    date.setUTCHours(hour, 0, 0, 0);
    return date.toISOString();
  };
  const day = (days: number) => at(days).slice(0, 10);
  const storage = BinaryStorage.inDataDir(options.dataDir);
  let count = 0;
  // Loosely typed input (seed literals), checked by the server's validation on create.
  // Written as the person the story has writing it (Alice, or a patient for their own messages), so
  // that the chart's timeline and each resource's history name them rather than "System".
  let writer = ctx;
  const create = async (resource: { resourceType: string } & Record<string, unknown>, as: RequestContext = writer) => {
    count++;
    return (await session.create(as, resource as unknown as Resource)) as Resource & Record<string, unknown>;
  };
  const inProject = <T extends Resource>(resources: Resource[]) =>
    resources.filter((resource) => resource.meta?.project === options.projectId) as T[];
  const search = async <T extends Resource>(type: string, query: Record<string, string>) =>
    inProject<T>((await session.search(parseSearchRequest(type, query, session.registry))).resources);

  await session.flush();
  const patients = inRecordOrder(await search<Patient>('Patient', { _count: '100' })).slice(0, 10);
  const practitioners = await search<Practitioner>('Practitioner', { _count: '50' });
  const alice = practitioners.find((p) => p.telecom?.some((t) => t.value?.startsWith('alice@')));
  const memberships = await search<ProjectMembership>('ProjectMembership', { _count: '50' });
  const portalPatientId = memberships
    .map((m) => m.profile?.reference ?? '')
    .find((reference) => reference.startsWith('Patient/'))
    ?.slice('Patient/'.length);
  if (!alice || patients.length === 0) return { resources: 0 };
  const aliceRef = ref(alice, 'Dr. Alice Carter');
  writer = { ...ctx, author: aliceRef };

  // Each record as imported, read before anything below adds to it.
  const records: PatientRecord[] = [];
  for (const patient of patients) {
    const subject = `Patient/${patient.id}`;
    records.push({
      patient,
      conditions: await search<Condition>('Condition', { subject, _count: '200' }),
      allergies: await search<AllergyIntolerance>('AllergyIntolerance', { patient: subject, _count: '200' }),
      medications: await search<MedicationRequest>('MedicationRequest', { subject, _count: '200' }),
      carePlans: await search<CarePlan>('CarePlan', { subject, _count: '200' }),
    });
  }
  const adults = records.filter((record) => isAdultOn(record.patient, now));
  const history = hypertensionStoryPatient(
    adults.map((record) => record.patient),
    adults.flatMap((record) => record.conditions),
    now,
  );
  // The vitals history is an adult's treated hypertension: the patient account's record, unless
  // that is a child's (then the first adult's).
  const portal = records.find((record) => record.patient.id === portalPatientId);
  const vitals = portal && adults.includes(portal) ? portal : adults[0];
  const told = records.map((record) => ({
    record,
    story: chooseStory(record, {
      today: now,
      writtenAsHypertensive: record === vitals || record.patient === history?.patient,
    }),
  }));
  // One urgent patient (stat order, urgent task and message): a hypertensive one whose readings are
  // up, not the vitals patient whose trend is coming down.
  const urgent =
    told.find(({ record, story }) => isHypertensionStory(story) && record !== vitals)?.record ?? vitals ?? records[0];

  for (const [index, { record, story }] of told.entries()) {
    const { patient } = record;
    const isUrgent = record === urgent;
    const patientRef = ref(patient, patientName(patient));

    // The story's problem: the record's own when the chart lists it already, else a problem-list item.
    let problem: Condition | undefined;
    if (story.condition) {
      const { code, display } = story.condition.problem;
      problem =
        listedProblemOf(record, story.condition) ??
        ((await create({
          resourceType: 'Condition',
          clinicalStatus: { coding: [{ system: CONDITION_CLINICAL_STATUS_SYSTEM, code: 'active' }] },
          category: [{ coding: [{ ...PROBLEM_LIST_CATEGORY }] }],
          code: { coding: [{ system: SNOMED, code, display }], text: display },
          subject: patientRef,
          onsetDateTime: day(record === vitals ? VITALS_HYPERTENSION_ONSET : -700 - index * 20),
        })) as Condition);
    }
    const forProblem = problem ? [ref(problem, conditionName(problem))] : undefined;

    // The record's own plan of the story's kind is the one followed up; else Alice writes one.
    const carePlan =
      recordedPlanOf(record, story) ??
      (await create({
        resourceType: 'CarePlan',
        status: 'active',
        intent: 'plan',
        title: story.carePlan.title,
        category: [{ coding: [{ system: SNOMED, code: '734163000', display: 'Care plan' }] }],
        subject: patientRef,
        period: { start: day(-30 - index) },
        author: aliceRef,
        ...(forProblem ? { addresses: forProblem } : {}),
        description: story.carePlan.description,
      }));
    const { lab } = story;
    // A third of the orders are done: drawn the morning after the order, reported that afternoon.
    const ordered = -2 - index;
    const completed = index % 3 === 2;
    const order = await create({
      resourceType: 'ServiceRequest',
      status: completed ? 'completed' : 'active',
      intent: 'order',
      priority: isUrgent ? 'stat' : 'routine',
      category: [{ coding: [LAB_PROCEDURE_CATEGORY] }],
      code: { coding: [{ system: LOINC_SYSTEM, code: lab.code, display: lab.display }], text: lab.name },
      subject: patientRef,
      requester: aliceRef,
      authoredOn: at(ordered),
      ...(lab.monitorsCondition && forProblem ? { reasonReference: forProblem } : {}),
    });
    // A completed order has its results, for the review the task asks for; an open one is followed up.
    const report = completed
      ? await seedLabReport({
          create,
          order,
          patient: patientRef,
          lab,
          results: labResultsFor(lab.code, patient, now),
          collected: at(ordered + 1, 8),
          issued: at(ordered + 1, 14),
        })
      : undefined;

    await create({
      resourceType: 'Task',
      status: 'ready',
      intent: 'order',
      priority: isUrgent ? 'urgent' : 'routine',
      code: { text: report ? 'Review lab results' : 'Review lab order' },
      description: `Review ${lab.name}`,
      focus: report ? ref(report) : ref(order),
      for: patientRef,
      owner: aliceRef,
      requester: aliceRef,
      authoredOn: report ? at(ordered + 1, 15) : at(-1 - index),
      restriction: { period: { end: day(3 + index) } },
    });
    await create({
      resourceType: 'Task',
      status: 'in-progress',
      intent: 'order',
      code: { text: 'Care plan follow-up' },
      description: `Follow up on the ${story.carePlan.title.toLowerCase()}`,
      focus: ref(carePlan),
      for: patientRef,
      requester: aliceRef,
      authoredOn: at(-3 - index),
      restriction: { period: { end: day(7 + index) } },
    });
    await create({
      resourceType: 'Task',
      status: index % 2 ? 'completed' : 'requested',
      intent: 'order',
      code: { text: 'Call patient to confirm appointment' },
      for: patientRef,
      ...(index % 2 ? { owner: aliceRef } : {}),
      authoredOn: at(-4 - index),
      restriction: { period: { end: day(1 + index) } },
    });

    await create({
      resourceType: 'Appointment',
      status: 'booked',
      description: 'Follow-up visit',
      serviceType: [{ text: 'General practice' }],
      start: at(2 + index, 14),
      end: new Date(Date.parse(at(2 + index, 14)) + 30 * 60 * 1000).toISOString(),
      participant: [
        { actor: patientRef, status: 'accepted' },
        { actor: aliceRef, status: 'accepted' },
      ],
    });
    await create({
      resourceType: 'Appointment',
      status: 'proposed',
      description: 'Annual wellness visit',
      serviceType: [{ text: 'Preventive care' }],
      start: at(30 + index, 10),
      end: new Date(Date.parse(at(30 + index, 10)) + 45 * 60 * 1000).toISOString(),
      participant: [
        { actor: patientRef, status: 'needs-action' },
        { actor: aliceRef, status: 'accepted' },
      ],
    });
    await create({
      resourceType: 'Appointment',
      status: 'fulfilled',
      description: story.pastVisit,
      start: at(-20 - index, 11),
      end: new Date(Date.parse(at(-20 - index, 11)) + 15 * 60 * 1000).toISOString(),
      participant: [
        { actor: patientRef, status: 'accepted' },
        { actor: aliceRef, status: 'accepted' },
      ],
    });

    const { device } = story;
    if (device && index % 2 === 0) {
      await create({
        resourceType: 'Device',
        status: 'active',
        deviceName: [{ name: device.name, type: 'user-friendly-name' }],
        type: { coding: [{ system: SNOMED, code: device.code, display: device.display }], text: device.display },
        patient: patientRef,
        manufacturer: 'Demo Devices Inc.',
        expirationDate: day(365),
      });
    } else if (device) {
      await create({
        resourceType: 'DeviceRequest',
        status: 'active',
        intent: 'order',
        codeCodeableConcept: {
          coding: [{ system: SNOMED, code: device.code, display: device.display }],
          text: device.name,
        },
        subject: patientRef,
        requester: aliceRef,
        authoredOn: at(-5),
        ...(forProblem ? { reasonReference: forProblem } : {}),
      });
    }

    const letter = `Referral letter for ${patientName(patient)}\n\nPlease see this patient ${story.referral}\n\nDr. Alice Carter, Demo Clinic`;
    const letterBinary = await createBinary(
      storage,
      session,
      writer,
      { contentType: 'text/plain', filename: 'referral-letter.txt', securityContext: patientRef },
      letter,
    );
    count++;
    await create({
      resourceType: 'DocumentReference',
      status: 'current',
      type: { coding: [{ system: LOINC_SYSTEM, code: '57133-1', display: 'Referral note' }], text: 'Referral note' },
      subject: patientRef,
      date: at(-6 - index),
      author: [aliceRef],
      description: 'Referral letter',
      content: [
        {
          attachment: {
            contentType: 'text/plain',
            url: `Binary/${letterBinary.id}`,
            title: 'referral-letter.txt',
            size: Buffer.byteLength(letter),
          },
        },
      ],
    });
    if (isUrgent || patient.id === portalPatientId) {
      const pdf = await createBinary(
        storage,
        session,
        writer,
        { contentType: 'application/pdf', filename: 'discharge-summary.pdf', securityContext: patientRef },
        DISCHARGE_PDF,
      );
      count++;
      await create({
        resourceType: 'DocumentReference',
        status: 'current',
        type: {
          coding: [{ system: LOINC_SYSTEM, code: '18842-5', display: 'Discharge summary' }],
          text: 'Discharge summary',
        },
        subject: patientRef,
        date: at(-40),
        author: [aliceRef],
        description: 'Discharge summary',
        content: [
          {
            attachment: {
              contentType: 'application/pdf',
              url: `Binary/${pdf.id}`,
              title: 'discharge-summary.pdf',
              size: Buffer.byteLength(DISCHARGE_PDF),
            },
          },
        ],
      });
    }

    const allergy = allergyFor(record);
    if (allergy) {
      await create({
        resourceType: 'AllergyIntolerance',
        clinicalStatus: {
          coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active' }],
        },
        verificationStatus: {
          coding: [
            { system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification', code: 'confirmed' },
          ],
        },
        code: { coding: [{ system: SNOMED, code: allergy.code, display: allergy.display }], text: allergy.display },
        patient: patientRef,
        onsetDateTime: day(-400 - index * 30),
        reaction: [{ manifestation: [{ text: allergy.reaction }] }],
      });
    }
    // The story's treatment of its problem; for the history's patient, the lisinopril his history leads to.
    // Not a second active order of a drug the record has one of (a Synthea diabetic's metformin).
    const { medication } = story;
    if (medication && forProblem && !isTaking(record, RXNORM, medication.code)) {
      await create({
        resourceType: 'MedicationRequest',
        status: 'active',
        intent: 'order',
        medicationCodeableConcept: {
          coding: [{ system: RXNORM, code: medication.code, display: medication.display }],
          text: medication.display,
        },
        subject: patientRef,
        requester: aliceRef,
        authoredOn: at(-10 - index),
        reasonReference: forProblem,
        dosageInstruction: [{ text: medication.dosage }],
      });
    }

    // Messages both ways; the ones to Alice not yet completed count as unread in her header. Both on
    // the day of the order, which Alice's message announces ("come in tomorrow morning").
    await create({
      resourceType: 'Communication',
      status: 'completed',
      subject: patientRef,
      sender: aliceRef,
      recipient: [patientRef],
      sent: at(ordered, 10),
      payload: [{ contentString: story.messages.fromAlice }],
    });
    await create(
      {
        resourceType: 'Communication',
        status: 'in-progress',
        ...(isUrgent ? { priority: 'urgent' } : {}),
        subject: patientRef,
        sender: patientRef,
        recipient: [aliceRef],
        sent: at(ordered, 16),
        payload: [{ contentString: isUrgent ? story.messages.urgentFromPatient : story.messages.fromPatient }],
      },
      { ...ctx, author: patientRef },
    );
  }

  if (vitals) {
    const bodySize = await search<Observation>('Observation', {
      subject: `Patient/${vitals.patient.id}`,
      code: BODY_SIZE_CODES.map((code) => `${LOINC_SYSTEM}|${code}`).join(','),
      _count: '1000',
    });
    count += await seedVitalsHistory(create, vitals.patient, latestBodySize(vitals.patient, bodySize), at);
  }
  if (history) {
    // `create` counts what it writes.
    await seedHypertensionStory({
      create,
      patient: ref(history.patient, patientName(history.patient)),
      alice: aliceRef,
      hypertension: ref(history.hypertension, 'Hypertension'),
      at,
    });
  }
  return { resources: count, vitalsPatientId: vitals?.patient.id, historyPatientId: history?.patient.id };
}

/**
 * Twelve monthly visits of every vital (8 Observations each): trends worth looking at. Height and
 * weight continue the patient's own latest measurement (the median for age and sex without one,
 * demoBodySize.ts), and the BMI is the visit's weight over its height squared.
 */
async function seedVitalsHistory(
  create: (resource: { resourceType: string } & Record<string, unknown>) => Promise<Resource>,
  patient: Patient,
  measured: ReturnType<typeof latestBodySize>,
  at: (days: number, hour?: number) => string,
): Promise<number> {
  const subject = ref(patient, patientName(patient));
  const visitDay = (visit: number) => -30 * (VITALS_VISITS - visit);
  const bodySize = bodySizeSeries(
    patient,
    measured,
    Array.from({ length: VITALS_VISITS }, (_, visit) => ageInYears(patient, new Date(at(visitDay(visit), 10)))),
  );
  const wave = (visit: number, base: number, spread: number) =>
    Math.round((base + spread * Math.sin(visit / 2) + (visit % 3) - 1) * 10) / 10;
  const values = (visit: number): Partial<Record<VitalKey, number>> => ({
    heartRate: Math.round(wave(visit, 76, 8)),
    temperature: wave(visit, 36.8, 0.3),
    respiratoryRate: Math.round(wave(visit, 15, 2)),
    height: bodySize[visit].heightCm,
    weight: bodySize[visit].weightKg,
    bmi: bodySize[visit].bmi,
    oxygen: Math.round(wave(visit, 97, 1.5)),
  });
  let created = 0;
  for (let visit = 0; visit < VITALS_VISITS; visit++) {
    const effectiveDateTime = at(visitDay(visit), 10);
    const base = {
      resourceType: 'Observation' as const,
      status: 'final' as const,
      category: [{ coding: [VITAL_SIGNS_CATEGORY] }],
      subject,
      effectiveDateTime,
    };
    const quantity = (value: number, unit: string) => ({ value, unit, system: UCUM_SYSTEM, code: unit });
    await create({
      ...base,
      code: { coding: [{ system: LOINC_SYSTEM, code: BLOOD_PRESSURE.code, display: BLOOD_PRESSURE.display }] },
      component: [
        {
          code: { coding: [{ system: LOINC_SYSTEM, code: SYSTOLIC.code, display: SYSTOLIC.display }] },
          valueQuantity: quantity(Math.round(wave(visit, 148 - visit * 2, 6)), SYSTOLIC.unit),
        },
        {
          code: { coding: [{ system: LOINC_SYSTEM, code: DIASTOLIC.code, display: DIASTOLIC.display }] },
          valueQuantity: quantity(Math.round(wave(visit, 94 - visit, 4)), DIASTOLIC.unit),
        },
      ],
    });
    created++;
    const readings = values(visit);
    for (const vital of SINGLE_VITALS) {
      const value = readings[vital.key];
      if (value === undefined) continue;
      await create({
        ...base,
        code: { coding: [{ system: LOINC_SYSTEM, code: vital.code, display: vital.display }], text: vital.label },
        valueQuantity: quantity(value, vital.unit),
      });
      created++;
    }
  }
  return created;
}
