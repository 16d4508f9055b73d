import type {
  Patient,
  Practitioner,
  PractitionerRole,
  Questionnaire,
  QuestionnaireResponse,
  Resource,
  Task,
  ValueSet,
} from '@medplum/fhirtypes';
import { bundledQuestionnaires, newPatientIntake, phq9, SOAP_NOTE_MENOPAUSE_URL } from '../../config/questionnaires';
import { MENOPAUSE_NOTE_TASK_CODE, taskBusinessStatusValueSet } from '../../config/clinical/taskTerminology';
import type { RepositorySession } from '../fhir/repository';
import { parseSearchRequest } from '../search/searchRequest';
import { systemAuthor } from '../definitions/loadDefinitions';
import { ageOn, inRecordOrder, isAdultOn } from './demoPatientRecord';

/**
 * The clinical content every project starts with: the visit-note questionnaire ("SOAP Note -
 * Menopause Service", app-spec §3) and the task business-status value set the task page offers.
 * Called inside the transaction that creates the project, so a project never exists without them.
 * They are ordinary resources of the project afterwards: its admins may edit or retire them.
 */
export async function seedBundledQuestionnaires(
  session: RepositorySession,
  projectId: string,
): Promise<{ questionnaires: Questionnaire[]; valueSets: ValueSet[] }> {
  const ctx = { projectId, author: systemAuthor };
  const questionnaires: Questionnaire[] = [];
  for (const questionnaire of bundledQuestionnaires) {
    questionnaires.push((await session.create(ctx, structuredClone(questionnaire))) as Questionnaire);
  }
  const valueSet = (await session.create(ctx, structuredClone(taskBusinessStatusValueSet))) as ValueSet;
  return { questionnaires, valueSets: [valueSet] };
}

const DAY_MS = 86_400_000;

/**
 * Demo work around questionnaires, so the task page's fill and review actions and My tasks have
 * something to show: the PHQ-9 and the paged new-patient intake, tasks to fill them (one Alice's,
 * one unassigned for doctors, due today or overdue), a submitted visit note awaiting review, and
 * Alice's PractitionerRole (doctor) that makes "unassigned, for my roles" meaningful.
 */
export async function seedDemoQuestionnaireTasks(
  session: RepositorySession,
  options: { projectId: string; now?: Date },
): Promise<number> {
  const ctx = { projectId: options.projectId, author: systemAuthor };
  const now = options.now ?? new Date();
  const day = (days: number) => new Date(now.getTime() + days * DAY_MS).toISOString().slice(0, 10);
  const inProject = <T extends Resource>(resources: Resource[]) =>
    resources.filter((r) => r.meta?.project === options.projectId) as T[];
  await session.flush();
  const patients = inRecordOrder(
    inProject<Patient>(
      (await session.search(parseSearchRequest('Patient', { _count: '100' }, session.registry))).resources,
    ),
  );
  const practitioners = inProject<Practitioner>(
    (await session.search(parseSearchRequest('Practitioner', { _count: '50' }, session.registry))).resources,
  );
  const alice = practitioners.find((p) => p.telecom?.some((t) => t.value?.startsWith('alice@')));
  const soap = inProject<Questionnaire>(
    (await session.search(parseSearchRequest('Questionnaire', { url: SOAP_NOTE_MENOPAUSE_URL }, session.registry)))
      .resources,
  )[0];
  if (!alice || patients.length === 0) return 0;
  const aliceRef = { reference: `Practitioner/${alice.id}`, display: 'Dr. Alice Carter' };
  const doctor = {
    system: 'http://terminology.hl7.org/CodeSystem/practitioner-role',
    code: 'doctor',
    display: 'Doctor',
  };
  let count = 0;
  // Alice's work in the story, so the timeline and histories name her rather than "System".
  const asAlice = { ...ctx, author: aliceRef };
  const create = async <T extends Resource>(resource: T, as = asAlice): Promise<T> => {
    count++;
    return (await session.create(as, resource)) as T;
  };

  // The clinic's set-up and the shipped forms are the system's.
  await create<PractitionerRole>(
    {
      resourceType: 'PractitionerRole',
      active: true,
      practitioner: aliceRef,
      code: [{ coding: [doctor], text: 'Doctor' }],
    },
    ctx,
  );
  const phq = await create(structuredClone(phq9), ctx);
  const intake = await create(structuredClone(newPatientIntake), ctx);
  const patientRef = (patient: Patient) => ({
    reference: `Patient/${patient.id}`,
    display: [patient.name?.[0]?.given?.[0], patient.name?.[0]?.family].filter(Boolean).join(' '),
  });

  // Chosen by their records, not their random ids: the same patients on every fresh start. The
  // menopause-service visit note is a woman's of menopausal age (Estrella Daugherty, 57, in the
  // shipped fixtures), else the oldest woman's; the PHQ-9 and the intake are the next adults'.
  const ageOf = (patient: Patient) => ageOn(patient, now) ?? 0;
  const women = patients.filter((patient) => patient.gender === 'female');
  const third =
    women.find((woman) => ageOf(woman) >= 45 && ageOf(woman) <= 65) ??
    [...women].sort((a, b) => ageOf(b) - ageOf(a))[0] ??
    patients[0];
  const [first = third, second = first] = patients.filter((patient) => patient !== third && isAdultOn(patient, now));
  await create<Task>({
    resourceType: 'Task',
    status: 'ready',
    intent: 'order',
    code: { text: 'Fill in the PHQ-9 depression screening' },
    description: 'Ask the patient the nine PHQ-9 questions at this visit.',
    focus: { reference: `Questionnaire/${phq.id}`, display: phq.title },
    for: patientRef(first),
    owner: aliceRef,
    authoredOn: new Date(now.getTime() - 2 * DAY_MS).toISOString(),
    restriction: { period: { end: day(0) } },
  });
  await create<Task>({
    resourceType: 'Task',
    status: 'ready',
    intent: 'order',
    code: { text: 'Complete the new-patient intake' },
    focus: { reference: `Questionnaire/${intake.id}`, display: intake.title },
    for: patientRef(second),
    performerType: [{ coding: [doctor], text: 'Doctor' }],
    authoredOn: new Date(now.getTime() - 5 * DAY_MS).toISOString(),
    restriction: { period: { end: day(-1) } },
  });
  if (soap) {
    const note = await create<QuestionnaireResponse>({
      resourceType: 'QuestionnaireResponse',
      questionnaire: `${soap.url}|${soap.version}`,
      status: 'completed',
      subject: patientRef(third),
      author: aliceRef,
      authored: new Date(now.getTime() - DAY_MS).toISOString(),
      item: [
        { linkId: 'visit-date', text: 'Date of visit', answer: [{ valueDate: day(-1) }] },
        {
          linkId: 'subjective',
          text: 'Subjective',
          item: [
            { linkId: 'hot-flashes', text: 'Hot flashes', answer: [{ valueBoolean: true }] },
            { linkId: 'mood-swings', text: 'Mood swings', answer: [{ valueBoolean: true }] },
            { linkId: 'vaginal-dryness', text: 'Vaginal dryness', answer: [{ valueBoolean: false }] },
            { linkId: 'sleep-disturbance', text: 'Sleep disturbance', answer: [{ valueBoolean: true }] },
            {
              linkId: 'subjective-details',
              text: 'Details',
              answer: [{ valueString: 'Night sweats most nights for three months; sleep broken.' }],
            },
          ],
        },
        {
          linkId: 'assessment',
          text: 'Assessment',
          item: [
            {
              linkId: 'diagnosis',
              text: 'Diagnosis',
              answer: [
                { valueCoding: { system: 'http://snomed.info/sct', code: '160398001', display: 'Late menopause' } },
              ],
            },
          ],
        },
        {
          linkId: 'plan',
          text: 'Plan',
          item: [
            {
              linkId: 'visit-code',
              text: 'Visit code',
              answer: [
                {
                  valueCoding: {
                    system: 'http://www.ama-assn.org/go/cpt',
                    code: '99204',
                    display: 'Moderate Complexity',
                  },
                },
              ],
            },
          ],
        },
      ],
    });
    await create<Task>({
      resourceType: 'Task',
      status: 'ready',
      intent: 'order',
      code: MENOPAUSE_NOTE_TASK_CODE,
      description: 'Review the menopause-service visit note',
      focus: { reference: `QuestionnaireResponse/${note.id}` },
      for: patientRef(third),
      owner: aliceRef,
      requester: aliceRef,
      authoredOn: new Date(now.getTime() - DAY_MS).toISOString(),
      restriction: { period: { end: day(2) } },
    });
  }
  return count;
}
