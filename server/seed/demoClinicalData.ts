import { randomUUID } from 'node:crypto';
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
import { contraceptionReviewFor } from './demoContraception';
import { CLINIC_DAY_STATUS, clinicDay, clinicDayPatients, FOLLOW_UP_MINUTES } from './demoClinicDay';
import {
  bloodPressureAt,
  bloodPressureAtGoal,
  calmVitalsAt,
  DIAGNOSIS_VISIT,
  vitalsVisitDays,
  type BloodPressure,
  type BloodPressureStory,
} from './demoVitalsHistory';

const SNOMED = 'http://snomed.info/sct';
const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const DAY = 24 * 60 * 60 * 1000;
const MINUTE = 60 * 1000;
/** The hour of the day of the story's past visit (the fulfilled Appointment) and of the vitals visits. */
const VISIT_HOUR = 11;
/** LOINC body height and body weight: what the vitals history's height and weight continue from. */
const BODY_SIZE_CODES = ['8302-2', '29463-7'];

export interface DemoClinicalSummary {
  resources: number;
  /** The patient with the long vitals history (the patient account's own record). */
  vitalsPatientId?: string;
  /** The patient with the long medication history and the echocardiogram report (demoHypertensionHistory.ts). */
  historyPatientId?: string;
}

/** The hospital stay a discharge summary is about: a short admission that fits any adult's story. */
export const HOSPITAL_STAY = {
  reason: { code: '385093006', display: 'Community acquired pneumonia' },
  /** Days before today: admitted in the afternoon, discharged three days later in the morning. */
  admitted: -43,
  discharged: -40,
} as const;

/**
 * A one-page PDF ("Discharge summary") of that stay, small enough to write here; shown inline by the
 * chart. `lines` in plain ASCII (Helvetica's standard encoding), the first as the heading.
 */
export function dischargeSummaryPdf([heading, ...lines]: string[]): string {
  const text = (line: string) => `(${line.replace(/[\\()]/g, (c) => `\\${c}`)})`;
  const stream = [
    `BT /F1 18 Tf 40 160 Td ${text(heading)} Tj /F1 12 Tf`,
    ...lines.map((line, index) => `0 ${index === 0 ? -32 : -20} Td ${text(line)} Tj`),
    'ET',
  ].join(' ');
  return [
    '%PDF-1.4',
    '1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj',
    '2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj',
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 200]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj',
    `4 0 obj<</Length ${Buffer.byteLength(stream)}>>stream`,
    stream,
    'endstream endobj',
    '5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj',
    'trailer<</Root 1 0 R>>',
    '%%EOF',
  ].join('\n');
}

/** "3 May 2026": how the summary's text dates the stay. */
const longDate = (instant: string) =>
  new Date(instant).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

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
 * are relative to `now`, so "upcoming" stays upcoming whenever the demo is started; and `now`'s day is
 * a clinic day (demoClinicDay.ts), with a patient waiting for Alice.
 */
export async function seedDemoClinicalData(
  session: RepositorySession,
  options: {
    projectId: string;
    dataDir: string;
    now?: Date;
    /** The clinic's clock, minutes east of UTC, for the day's visits; the server's own by default. */
    utcOffsetMinutes?: number;
  },
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
  // `id`: one chosen ahead, for a resource that is referred to before it is written (checked at commit).
  const create = async (
    resource: { resourceType: string } & Record<string, unknown>,
    as: RequestContext = writer,
    id?: string,
  ) => {
    count++;
    return (await session.create(as, resource as unknown as Resource, id ? { id, fresh: true } : {})) as Resource &
      Record<string, unknown>;
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
  // up, not the vitals patient, whose year of monthly checks tells a steadier story, nor the history's,
  // whose blood pressure is at target on his lisinopril.
  const urgent =
    told.find(
      ({ record, story }) => isHypertensionStory(story) && record !== vitals && record.patient !== history?.patient,
    )?.record ??
    vitals ??
    records[0];
  // What the vitals history follows: the vitals patient's story, its problem and when its drug was started.
  let vitalsPlan: VitalsPlan | undefined;
  // The day of the seed at the clinic: on the server's clock, which a demo's browser shares.
  const today = clinicDay(now, options.utcOffsetMinutes ?? -now.getTimezoneOffset());
  const todaysPatients = clinicDayPatients(records, { first: portal, urgent, day: today });
  // The check-in is the front desk's (Ben's) when the clinic has him; else written as the others.
  const deskPractitioner = practitioners.find((p) => p.telecom?.some((t) => t.value?.startsWith('ben@')));
  const desk = deskPractitioner ? { ...ctx, author: ref(deskPractitioner, 'Ben Okafor') } : writer;

  for (const [index, { record, story }] of told.entries()) {
    const { patient } = record;
    const isUrgent = record === urgent;
    const patientRef = ref(patient, patientName(patient));
    // The visit of three weeks ago (the fulfilled Appointment), at which the story's drug is started.
    const pastVisit = -20 - index;
    // The vitals history's monthly visits end with that one: the readings that led to the drug.
    const vitalsDays = record === vitals ? vitalsVisitDays(pastVisit) : undefined;
    const { medication } = story;
    // Not a second active order of a drug the record has one of (a Synthea diabetic's metformin).
    const startsMedication =
      medication !== undefined && story.condition !== undefined && !isTaking(record, RXNORM, medication.code);
    const review = contraceptionReviewFor(record, story);
    // The vitals history's hypertension is diagnosed at its second raised reading: that visit, written
    // with the vitals history below, is the diagnosis's Encounter.
    const diagnosisVisitId = vitalsDays && isHypertensionStory(story) ? randomUUID() : undefined;

    // The story's problem: the record's own when the chart lists it already, else a problem-list item.
    let problem: Condition | undefined;
    if (story.condition) {
      const { code, display } = story.condition.problem;
      const onset = day(vitalsDays ? vitalsDays[DIAGNOSIS_VISIT] : -700 - index * 20);
      problem =
        listedProblemOf(record, story.condition) ??
        ((await create({
          resourceType: 'Condition',
          clinicalStatus: { coding: [{ system: CONDITION_CLINICAL_STATUS_SYSTEM, code: 'active' }] },
          category: [{ coding: [{ ...PROBLEM_LIST_CATEGORY }] }],
          code: { coding: [{ system: SNOMED, code, display }], text: display },
          subject: patientRef,
          onsetDateTime: onset,
          ...(diagnosisVisitId
            ? { recordedDate: onset, encounter: { reference: `Encounter/${diagnosisVisitId}` } }
            : {}),
        })) as Condition);
    }
    const forProblem = problem ? [ref(problem, conditionName(problem))] : undefined;

    // The vitals history's months of raised readings before the drug: lifestyle changes first, agreed
    // at the diagnosis and followed at the monthly checks, until the drug is started.
    const lifestyleTrial =
      vitalsDays && diagnosisVisitId && forProblem && startsMedication
        ? await create({
            resourceType: 'CarePlan',
            status: 'completed',
            intent: 'plan',
            title: LIFESTYLE_TRIAL.title,
            category: [{ coding: [{ system: SNOMED, code: '734163000', display: 'Care plan' }] }],
            subject: patientRef,
            period: { start: day(vitalsDays[DIAGNOSIS_VISIT]), end: day(pastVisit) },
            encounter: { reference: `Encounter/${diagnosisVisitId}` },
            author: aliceRef,
            addresses: forProblem,
            description: LIFESTYLE_TRIAL.description,
            note: [
              {
                time: at(pastVisit, VISIT_HOUR),
                text: LIFESTYLE_TRIAL.outcome(Math.round((pastVisit - vitalsDays[DIAGNOSIS_VISIT]) / 30)),
              },
            ],
          })
        : undefined;

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
        // Written at the visit that started its treatment, which it names.
        period: { start: day(pastVisit) },
        author: aliceRef,
        ...(forProblem ? { addresses: forProblem } : {}),
        ...(lifestyleTrial ? { replaces: [ref(lifestyleTrial)] } : {}),
        description: review ? `${story.carePlan.description} ${review.carePlanNote}` : story.carePlan.description,
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
    // Raised at the visit that started the blood pressure treatment, for the booked follow-up visit:
    // the pill is left as it is until the patient has chosen another method with the clinician.
    if (review && problem) {
      await create({
        resourceType: 'Task',
        status: 'ready',
        intent: 'order',
        priority: 'routine',
        code: { text: 'Review contraception' },
        description: review.task,
        focus: ref(review.contraception.order, review.contraception.name),
        for: patientRef,
        owner: aliceRef,
        requester: aliceRef,
        authoredOn: at(pastVisit, VISIT_HOUR),
        reasonReference: ref(problem, conditionName(problem)),
        restriction: { period: { end: day(2 + index) } },
      });
    }
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

    // The follow-up visit: on a later day, or on the day of the seed (clinicDay: waiting, later, or seen).
    const todayKind = todaysPatients.get(record);
    const todaySlot = todayKind && today[todayKind];
    const followUpStart = todaySlot ? todaySlot.start.toISOString() : at(2 + index, 14);
    const followUpEnd = new Date(Date.parse(followUpStart) + FOLLOW_UP_MINUTES * MINUTE).toISOString();
    const followUp = {
      resourceType: 'Appointment',
      status: todayKind === 'earlier' ? CLINIC_DAY_STATUS.earlier : 'booked',
      description: 'Follow-up visit',
      serviceType: [{ text: 'General practice' }],
      start: followUpStart,
      end: followUpEnd,
      participant: [
        { actor: patientRef, status: 'accepted' },
        { actor: aliceRef, status: 'accepted' },
      ],
    };
    const followUpAppointment = await create(followUp);
    if (todayKind === 'arrived') {
      // Checked in at the desk as the desk's Check in does (status only): a second version, which
      // Here today reads the arrival from. Its time is the seed's, the moment the patient came in.
      await session.flush();
      await session.update(desk, {
        ...followUp,
        id: followUpAppointment.id,
        status: CLINIC_DAY_STATUS.arrived,
      } as Resource);
    }
    if (todayKind === 'earlier') {
      // Seen earlier in the day: a documented visit, like the past one's.
      await create(
        visitEncounter({
          subject: patientRef,
          clinician: aliceRef,
          start: followUpStart,
          type: followUp.description,
          ...(forProblem ? { reason: forProblem } : {}),
          appointment: followUpAppointment,
        }),
      );
    }
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
    const pastAppointment = await create({
      resourceType: 'Appointment',
      status: 'fulfilled',
      description: story.pastVisit,
      start: at(pastVisit, VISIT_HOUR),
      end: new Date(Date.parse(at(pastVisit, VISIT_HOUR)) + VISIT_MINUTES * MINUTE).toISOString(),
      participant: [
        { actor: patientRef, status: 'accepted' },
        { actor: aliceRef, status: 'accepted' },
      ],
    });
    // The visit took place: a documented visit, like the record's own. (The vitals patient's is the
    // last of the vitals history's visits.) A blood pressure check has the reading that started the
    // drug, before its first dose, raised; the history's patient, whose lisinopril is renewed at the
    // same dose, is at target on it.
    if (!vitalsDays) {
      const visit = await create(
        visitEncounter({
          subject: patientRef,
          clinician: aliceRef,
          start: at(pastVisit, VISIT_HOUR),
          type: story.pastVisit,
          ...(forProblem ? { reason: forProblem } : {}),
          appointment: pastAppointment,
        }),
      );
      if (isHypertensionStory(story)) {
        await create(
          bloodPressureObservation(
            patientRef,
            visit,
            at(pastVisit, VISIT_HOUR),
            record.patient === history?.patient
              ? bloodPressureAtGoal(index)
              : bloodPressureAt(index, pastVisit, { hypertensive: true }),
          ),
        );
      }
    }

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
      // The stay the summary is about: a finished inpatient Encounter, which the summary names.
      const period = { start: at(HOSPITAL_STAY.admitted, 16), end: at(HOSPITAL_STAY.discharged, 11) };
      const { reason } = HOSPITAL_STAY;
      const stay = await create({
        resourceType: 'Encounter',
        status: 'finished',
        class: INPATIENT,
        type: [
          { coding: [{ system: SNOMED, code: '32485007', display: 'Hospital admission' }], text: 'Hospital stay' },
        ],
        subject: patientRef,
        period,
        reasonCode: [{ coding: [{ system: SNOMED, ...reason }], text: reason.display }],
        hospitalization: {
          dischargeDisposition: {
            coding: [
              { system: 'http://terminology.hl7.org/CodeSystem/discharge-disposition', code: 'home', display: 'Home' },
            ],
          },
        },
      });
      const summaryPdf = dischargeSummaryPdf([
        'Discharge summary - Demo Clinic',
        `${patientName(patient)}: admitted ${longDate(period.start)}, discharged ${longDate(period.end)}.`,
        'Community-acquired pneumonia, treated with IV then oral antibiotics.',
        'Stable on discharge; follow up at the clinic in 2 to 3 weeks.',
      ]);
      const pdf = await createBinary(
        storage,
        session,
        writer,
        { contentType: 'application/pdf', filename: 'discharge-summary.pdf', securityContext: patientRef },
        summaryPdf,
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
        // Written on the day of discharge, after it.
        date: at(HOSPITAL_STAY.discharged, 14),
        author: [aliceRef],
        description: 'Discharge summary',
        context: { encounter: [ref(stay)], period },
        content: [
          {
            attachment: {
              contentType: 'application/pdf',
              url: `Binary/${pdf.id}`,
              title: 'discharge-summary.pdf',
              size: Buffer.byteLength(summaryPdf),
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
    if (medication && forProblem && startsMedication) {
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
        authoredOn: at(pastVisit, VISIT_HOUR),
        reasonReference: forProblem,
        dosageInstruction: [{ text: medication.dosage }],
      });
    }
    if (vitalsDays) {
      vitalsPlan = {
        visitDays: vitalsDays,
        pressure: {
          hypertensive: isHypertensionStory(story),
          ...(startsMedication && forProblem ? { treatmentStartDay: pastVisit } : {}),
        },
        problem: isHypertensionStory(story) ? problem : undefined,
        ...(diagnosisVisitId ? { diagnosisVisitId } : {}),
        lastVisit: { description: story.pastVisit, appointment: pastAppointment },
      };
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

  if (vitals && vitalsPlan) {
    const bodySize = await search<Observation>('Observation', {
      subject: `Patient/${vitals.patient.id}`,
      code: BODY_SIZE_CODES.map((code) => `${LOINC_SYSTEM}|${code}`).join(','),
      _count: '1000',
    });
    // `create` counts what it writes.
    await seedVitalsHistory(create, {
      patient: vitals.patient,
      clinician: aliceRef,
      measured: latestBodySize(vitals.patient, bodySize),
      plan: vitalsPlan,
      at,
    });
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

interface VitalsPlan {
  /** Days of the monthly visits, oldest first; the last is the story's past visit. */
  visitDays: number[];
  pressure: BloodPressureStory;
  /** The hypertension the blood pressure checks are about, once diagnosed. */
  problem?: Condition;
  /** The id of the visit at which it was diagnosed (DIAGNOSIS_VISIT), which the Condition names. */
  diagnosisVisitId?: string;
  /** The story's past visit: its name and the fulfilled Appointment it was booked as. */
  lastVisit: { description: string; appointment: Resource };
}

const AMBULATORY = { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'AMB', display: 'ambulatory' };
const INPATIENT = {
  system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode',
  code: 'IMP',
  display: 'inpatient encounter',
};

/**
 * The lifestyle trial of the vitals history's hypertension: agreed at the diagnosis (two raised
 * readings a month apart), followed at the monthly checks; the drug is started when the readings
 * stay raised. It names no drug: the follow-up plan that replaces it does.
 */
export const LIFESTYLE_TRIAL = {
  title: 'Lifestyle changes for high blood pressure',
  description:
    'Blood pressure 140/90 or more at two visits a month apart, no sign of organ damage: lifestyle changes first ' +
    '(salt under 6 g a day, 150 minutes of brisk activity a week, alcohol within 14 units a week, no smoking), ' +
    'blood pressure checked at the clinic each month; a blood pressure drug if it stays at 140/90 or more.',
  outcome: (months: number) =>
    `Readings still 140/90 or more after ${months} months of lifestyle changes: drug treatment started, ` +
    'followed in the hypertension follow-up plan.',
} as const;
const PRIMARY_PERFORMER = {
  coding: [
    {
      system: 'http://terminology.hl7.org/CodeSystem/v3-ParticipationType',
      code: 'PPRF',
      display: 'primary performer',
    },
  ],
};
/** How long a visit lasts: the past visit's Appointment books 15 minutes. */
const VISIT_MINUTES = 15;

/** A finished office visit with the clinician, on `start`; what it was booked as, when it was. */
function visitEncounter(visit: {
  subject: Reference;
  clinician: Reference;
  start: string;
  type: string;
  reason?: Reference[];
  appointment?: Resource;
}): { resourceType: 'Encounter' } & Record<string, unknown> {
  return {
    resourceType: 'Encounter',
    status: 'finished',
    class: AMBULATORY,
    type: [{ text: visit.type }],
    subject: visit.subject,
    participant: [{ type: [PRIMARY_PERFORMER], individual: visit.clinician }],
    period: { start: visit.start, end: new Date(Date.parse(visit.start) + VISIT_MINUTES * MINUTE).toISOString() },
    ...(visit.reason ? { reasonReference: visit.reason } : {}),
    ...(visit.appointment ? { appointment: [ref(visit.appointment)] } : {}),
  };
}

const vitalQuantity = (value: number, unit: string) => ({ value, unit, system: UCUM_SYSTEM, code: unit });

/** The visit's office blood pressure, as one panel with its systolic and diastolic parts. */
function bloodPressureObservation(
  subject: Reference,
  encounter: Resource,
  effectiveDateTime: string,
  pressure: BloodPressure,
): { resourceType: 'Observation' } & Record<string, unknown> {
  return {
    resourceType: 'Observation',
    status: 'final',
    category: [{ coding: [VITAL_SIGNS_CATEGORY] }],
    code: { coding: [{ system: LOINC_SYSTEM, code: BLOOD_PRESSURE.code, display: BLOOD_PRESSURE.display }] },
    subject,
    encounter: ref(encounter),
    effectiveDateTime,
    component: [
      {
        code: { coding: [{ system: LOINC_SYSTEM, code: SYSTOLIC.code, display: SYSTOLIC.display }] },
        valueQuantity: vitalQuantity(pressure.systolic, SYSTOLIC.unit),
      },
      {
        code: { coding: [{ system: LOINC_SYSTEM, code: DIASTOLIC.code, display: DIASTOLIC.display }] },
        valueQuantity: vitalQuantity(pressure.diastolic, DIASTOLIC.unit),
      },
    ],
  };
}

/**
 * Twelve monthly visits, each an Encounter with Alice and every vital (8 Observations, which name
 * the visit): the blood pressure the story tells (demoVitalsHistory.ts), the other vitals of a well
 * outpatient. Height and weight continue the patient's own latest measurement (the median for age
 * and sex without one, demoBodySize.ts), and the BMI is the visit's weight over its height squared.
 */
async function seedVitalsHistory(
  create: (
    resource: { resourceType: string } & Record<string, unknown>,
    as?: RequestContext,
    id?: string,
  ) => Promise<Resource>,
  options: {
    patient: Patient;
    clinician: Reference;
    measured: ReturnType<typeof latestBodySize>;
    plan: VitalsPlan;
    at: (days: number, hour?: number) => string;
  },
): Promise<void> {
  const { patient, clinician, measured, plan, at } = options;
  const subject = ref(patient, patientName(patient));
  const { visitDays } = plan;
  const bodySize = bodySizeSeries(
    patient,
    measured,
    visitDays.map((visitDay) => ageInYears(patient, new Date(at(visitDay, VISIT_HOUR)))),
  );
  const diagnosed = plan.problem ? ref(plan.problem, conditionName(plan.problem)) : undefined;
  for (const [visit, visitDay] of visitDays.entries()) {
    const effectiveDateTime = at(visitDay, VISIT_HOUR);
    const last = visit === visitDays.length - 1;
    // The raised reading that started it all is found at a routine visit; from the diagnosis on, the
    // visits are the hypertension's checks.
    const checksHypertension = diagnosed !== undefined && visit >= DIAGNOSIS_VISIT;
    const encounter = await create(
      visitEncounter({
        subject,
        clinician,
        start: effectiveDateTime,
        type: last ? plan.lastVisit.description : checksHypertension ? 'Blood pressure check' : 'Follow-up visit',
        ...(checksHypertension ? { reason: [diagnosed] } : {}),
        ...(last ? { appointment: plan.lastVisit.appointment } : {}),
      }),
      undefined,
      visit === DIAGNOSIS_VISIT ? plan.diagnosisVisitId : undefined,
    );
    await create(
      bloodPressureObservation(subject, encounter, effectiveDateTime, bloodPressureAt(visit, visitDay, plan.pressure)),
    );
    const readings: Partial<Record<VitalKey, number>> = {
      ...calmVitalsAt(visit),
      height: bodySize[visit].heightCm,
      weight: bodySize[visit].weightKg,
      bmi: bodySize[visit].bmi,
    };
    for (const vital of SINGLE_VITALS) {
      const value = readings[vital.key];
      if (value === undefined) continue;
      await create({
        resourceType: 'Observation',
        status: 'final',
        category: [{ coding: [VITAL_SIGNS_CATEGORY] }],
        code: { coding: [{ system: LOINC_SYSTEM, code: vital.code, display: vital.display }], text: vital.label },
        subject,
        encounter: ref(encounter),
        effectiveDateTime,
        valueQuantity: vitalQuantity(value, vital.unit),
      });
    }
  }
}
