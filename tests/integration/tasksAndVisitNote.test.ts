import { beforeAll, describe, expect, it } from 'vitest';
import type {
  Bundle,
  Patient,
  Practitioner,
  Questionnaire,
  QuestionnaireResponse,
  Task,
  ValueSet,
} from '@medplum/fhirtypes';
import { http } from './fhirClient';
import { registerProjectOwner } from './accounts';
import { SOAP_NOTE_MENOPAUSE_URL } from '../../config/questionnaires';
import { TASK_BUSINESS_STATUS_VALUE_SET, PRACTITIONER_ROLE_VALUE_SET } from '../../config/clinical/taskTerminology';
import {
  businessStatusPatch,
  completePatch,
  dueDatePatch,
  notePatch,
  ownerPatch,
  performerTypePatch,
  statusPatch,
} from '../../custom-screens/tasks/taskPatch';
import { fillTaskTransaction } from '../../custom-screens/tasks/taskTransaction';
import { visitNoteTransaction, createdIds } from '../../custom-screens/visit-note/visitNoteTransaction';
import { buildResponse } from '../../src/questionnaire/buildResponse';
import { initialFormState } from '../../src/questionnaire/initialState';
import { validateResponse } from '../../src/questionnaire/validateResponse';
import { setAnswers } from '../../src/questionnaire/formState';
import { phq9 } from '../../config/questionnaires/phq9';

/**
 * The task page's patches, the visit note's transaction and the bundled content, against the real
 * server: what the screens send is what the server accepts, and a stale version changes nothing.
 */
let token: string;
const otherPractitioners: Record<string, string> = {};
let practitioner: string;
let patient: Patient;

const api = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
  http<T>(method, `fhir/R4/${path}`, {
    token,
    body,
    ...(method === 'PATCH' ? { headers: { 'content-type': 'application/json-patch+json' } } : {}),
  });

async function newTask(extra: Partial<Task> = {}): Promise<Task> {
  const answer = await api<Task>('POST', 'Task', {
    resourceType: 'Task',
    status: 'ready',
    intent: 'order',
    for: { reference: `Patient/${patient.id}` },
    ...extra,
  });
  expect(answer.status).toBe(201);
  return answer.body;
}

beforeAll(async () => {
  const owner = await registerProjectOwner();
  token = owner.tokens.access_token;
  practitioner = owner.tokens.profile.reference;
  // Owners must be real Practitioners of the project (references resolve in it: issue 14 item 20).
  for (const id of ['someone-else', 'other-user']) {
    const created = await api<Practitioner>('POST', 'Practitioner', {
      resourceType: 'Practitioner',
      name: [{ family: id }],
    });
    otherPractitioners[id] = `Practitioner/${created.body.id}`;
  }
  patient = (
    await api<Patient>('POST', 'Patient', {
      resourceType: 'Patient',
      name: [{ given: ['Mae'], family: 'Lind' }],
      birthDate: '1968-04-02',
    })
  ).body;
});

describe('bundled content of a new project', () => {
  it('has the SOAP Note questionnaire and the task business-status value set, both expandable', async () => {
    const found = await api<Bundle<Questionnaire>>(
      'GET',
      `Questionnaire?url=${encodeURIComponent(SOAP_NOTE_MENOPAUSE_URL)}`,
    );
    expect(found.body.entry).toHaveLength(1);
    expect(found.body.entry?.[0].resource?.title).toBe('SOAP Note - Menopause Service');
    const business = await api<ValueSet>(
      'GET',
      `ValueSet/$expand?url=${encodeURIComponent(TASK_BUSINESS_STATUS_VALUE_SET)}`,
    );
    expect(business.status).toBe(200);
    expect(business.body.expansion?.contains?.map((c) => c.code)).toContain('awaiting-review');
    const roles = await api<ValueSet>(
      'GET',
      `ValueSet/$expand?url=${encodeURIComponent(PRACTITIONER_ROLE_VALUE_SET)}&filter=nur`,
    );
    expect(roles.body.expansion?.contains?.map((c) => c.code)).toEqual(['nurse']);
  });

  it('does not leak into another project', async () => {
    const other = await registerProjectOwner();
    const mine = await api<Bundle<Questionnaire>>(
      'GET',
      `Questionnaire?url=${encodeURIComponent(SOAP_NOTE_MENOPAUSE_URL)}`,
    );
    const theirs = await http<Bundle<Questionnaire>>(
      'GET',
      `fhir/R4/Questionnaire?url=${encodeURIComponent(SOAP_NOTE_MENOPAUSE_URL)}`,
      {
        token: other.tokens.access_token,
      },
    );
    expect(theirs.body.entry).toHaveLength(1);
    expect(theirs.body.entry?.[0].resource?.id).not.toBe(mine.body.entry?.[0].resource?.id);
  });
});

describe('task actions as guarded JSON Patches', () => {
  it('applies every action, adding absent fields and replacing present ones', async () => {
    let task = await newTask();
    const step = async (patch: (t: Task) => unknown[]) => {
      const answer = await api<Task>('PATCH', `Task/${task.id}`, patch(task));
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      task = answer.body;
    };
    await step((t) => ownerPatch(t, { reference: practitioner, display: 'Me' }));
    expect(task.owner?.reference).toBe(practitioner);
    await step((t) => ownerPatch(t, { reference: otherPractitioners['someone-else'] }));
    expect(task.owner?.reference).toBe(otherPractitioners['someone-else']);
    await step((t) =>
      performerTypePatch(t, {
        system: 'http://terminology.hl7.org/CodeSystem/practitioner-role',
        code: 'nurse',
        display: 'Nurse',
      }),
    );
    await step((t) =>
      performerTypePatch(t, {
        system: 'http://terminology.hl7.org/CodeSystem/practitioner-role',
        code: 'doctor',
        display: 'Doctor',
      }),
    );
    expect(task.performerType?.map((c) => c.coding?.[0].code)).toEqual(['nurse', 'doctor']);
    await step((t) => businessStatusPatch(t, { code: 'awaiting-review', display: 'Awaiting review' }));
    await step((t) => businessStatusPatch(t, { code: 'done', display: 'Done' }));
    expect(task.businessStatus?.coding?.[0].code).toBe('done');
    await step((t) => dueDatePatch(t, '2030-01-02'));
    await step((t) => dueDatePatch(t, '2030-02-03'));
    expect(task.restriction?.period?.end).toBe('2030-02-03');
    await step((t) => notePatch(t, { text: 'first', time: '2030-01-01T10:00:00Z' }));
    await step((t) => notePatch(t, { text: 'second', time: '2030-01-02T10:00:00Z' }));
    expect(task.note?.map((n) => n.text)).toEqual(['first', 'second']);
    await step((t) => statusPatch(t, 'on-hold'));
    await step((t) => statusPatch(t, 'in-progress'));
    await step(completePatch);
    expect(task.status).toBe('completed');
  });

  it('refuses a change made on a stale version (412) and changes nothing', async () => {
    const loaded = await newTask();
    // Another user claims it first.
    const other = await api<Task>(
      'PATCH',
      `Task/${loaded.id}`,
      ownerPatch(loaded, { reference: otherPractitioners['other-user'] }),
    );
    expect(other.status).toBe(200);
    // The first user's claim, on the version they loaded.
    const mine = await api('PATCH', `Task/${loaded.id}`, ownerPatch(loaded, { reference: practitioner }));
    expect(mine.status).toBe(412);
    const now = await api<Task>('GET', `Task/${loaded.id}`);
    expect(now.body.owner?.reference).toBe(otherPractitioners['other-user']);
    expect(now.body.meta?.versionId).toBe(other.body.meta?.versionId);
    // A note on the stale version is refused too; on the current one it goes through.
    expect((await api('PATCH', `Task/${loaded.id}`, notePatch(loaded, { text: 'kept' }))).status).toBe(412);
    expect((await api('PATCH', `Task/${loaded.id}`, notePatch(now.body, { text: 'kept' }))).status).toBe(200);
  });

  it('finds the lists the screens ask for: open tasks with a focus, unassigned ones, with their patients', async () => {
    const focused = await newTask({
      focus: { reference: `Patient/${patient.id}` },
      owner: { reference: practitioner },
    });
    const unassigned = await newTask({ status: 'requested' });
    const open = await api<Bundle<Task>>(
      'GET',
      `Task?patient=Patient/${patient.id}&status:not=completed&focus:missing=false&_count=100`,
    );
    const openIds = open.body.entry?.map((e) => e.resource?.id);
    expect(openIds).toContain(focused.id);
    expect(openIds).not.toContain(unassigned.id);
    const free = await api<Bundle>(
      'GET',
      `Task?owner:missing=true&status=requested,ready&_include=Task:patient&_count=100`,
    );
    const types = free.body.entry?.map((e) => `${e.resource?.resourceType}/${e.resource?.id}`);
    expect(types).toContain(`Task/${unassigned.id}`);
    expect(types).toContain(`Patient/${patient.id}`);
    expect(types).not.toContain(`Task/${focused.id}`);
  });
});

describe('questionnaire responses', () => {
  it('fills a task whose focus is a questionnaire: response and completion in one transaction, none on a stale task', async () => {
    const questionnaire = (await api<Questionnaire>('POST', 'Questionnaire', phq9)).body;
    const task = await newTask({ focus: { reference: `Questionnaire/${questionnaire.id}` } });
    let state = initialFormState(questionnaire);
    state = setAnswers(state, 'phq9-items[0]/44250-9', [
      { valueCoding: { system: 'http://loinc.org', code: 'LA6568-5' } },
    ]);
    const response = buildResponse(questionnaire, state, {
      status: 'completed',
      subject: { reference: `Patient/${patient.id}` },
    });

    // Someone pauses the task after it was loaded: the whole transaction fails, no response is stored.
    await api('PATCH', `Task/${task.id}`, statusPatch(task, 'on-hold'));
    const stale = await api('POST', '', fillTaskTransaction(task, response));
    expect(stale.status).toBe(412);
    const none = await api<Bundle>('GET', `QuestionnaireResponse?based-on=Task/${task.id}`);
    expect(none.body.entry ?? []).toHaveLength(0);

    const current = (await api<Task>('GET', `Task/${task.id}`)).body;
    const done = await api<Bundle>('POST', '', fillTaskTransaction(current, response));
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const completed = (await api<Task>('GET', `Task/${task.id}`)).body;
    expect(completed.status).toBe('completed');
    const stored = await api<Bundle<QuestionnaireResponse>>('GET', `QuestionnaireResponse?based-on=Task/${task.id}`);
    expect(stored.body.entry).toHaveLength(1);
    // The task names the response it produced, by its stored id.
    expect(completed.output?.map((output) => output.valueReference?.reference)).toEqual([
      `QuestionnaireResponse/${stored.body.entry?.[0].resource?.id}`,
    ]);
  });

  it('submits a visit note: a drafted response completed in place with its follow-up task, or neither', async () => {
    const soap = (
      await api<Bundle<Questionnaire>>('GET', `Questionnaire?url=${encodeURIComponent(SOAP_NOTE_MENOPAUSE_URL)}`)
    ).body.entry?.[0].resource as Questionnaire;
    let state = initialFormState(soap);
    state = setAnswers(state, 'subjective[0]/hot-flashes', [{ valueBoolean: true }]);
    const subject = { reference: `Patient/${patient.id}` };
    const draft = (
      await api<QuestionnaireResponse>(
        'POST',
        'QuestionnaireResponse',
        buildResponse(soap, state, { status: 'in-progress', subject }),
      )
    ).body;
    expect(draft.status).toBe('in-progress');

    state = setAnswers(state, 'plan[0]/visit-code', [
      { valueCoding: { system: 'http://www.ama-assn.org/go/cpt', code: '99205', display: 'High Complexity' } },
    ]);
    const final = buildResponse(soap, state, { status: 'completed', subject, existing: draft });

    // The draft was saved again elsewhere (another tab): the stale submit writes nothing.
    await api('PUT', `QuestionnaireResponse/${draft.id}`, { ...draft, meta: undefined });
    const tasksBefore = (await api<Bundle>('GET', `Task?patient=Patient/${patient.id}&_summary=count`)).body.total;
    const stale = await api('POST', '', visitNoteTransaction(final, subject, { reference: practitioner }));
    expect(stale.status).toBe(412);
    expect((await api<Bundle>('GET', `Task?patient=Patient/${patient.id}&_summary=count`)).body.total).toBe(
      tasksBefore,
    );

    const latest = (await api<QuestionnaireResponse>('GET', `QuestionnaireResponse/${draft.id}`)).body;
    const answer = await api<Bundle>(
      'POST',
      '',
      visitNoteTransaction({ ...final, meta: latest.meta }, subject, { reference: practitioner }),
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const ids = createdIds(answer.body);
    expect(ids.responseId).toBe(draft.id);
    const task = (await api<Task>('GET', `Task/${ids.taskId}`)).body;
    expect(task).toMatchObject({
      status: 'ready',
      intent: 'order',
      focus: { reference: `QuestionnaireResponse/${draft.id}` },
      for: subject,
      code: { text: 'Physician menopause-management note' },
    });
    const completed = (await api<QuestionnaireResponse>('GET', `QuestionnaireResponse/${draft.id}`)).body;
    expect(completed.status).toBe('completed');
    expect(validateResponse(soap, completed)).toEqual([]);
  });

  it('a new note without a draft is created with its task (urn:uuid focus resolved)', async () => {
    const soap = (
      await api<Bundle<Questionnaire>>('GET', `Questionnaire?url=${encodeURIComponent(SOAP_NOTE_MENOPAUSE_URL)}`)
    ).body.entry?.[0].resource as Questionnaire;
    const subject = { reference: `Patient/${patient.id}` };
    const response = buildResponse(soap, initialFormState(soap), { status: 'completed', subject });
    const answer = await api<Bundle>('POST', '', visitNoteTransaction(response, subject, undefined));
    expect(answer.status).toBe(200);
    const ids = createdIds(answer.body);
    const task = (await api<Task>('GET', `Task/${ids.taskId}`)).body;
    expect(task.focus?.reference).toBe(`QuestionnaireResponse/${ids.responseId}`);
  });

  it("agrees with the server's $validate on produced responses, and catches what it does not check", async () => {
    let state = initialFormState(phq9);
    state = setAnswers(state, 'phq9-items[0]/44250-9', [
      { valueCoding: { system: 'http://loinc.org', code: 'LA6570-1' } },
    ]);
    const response = buildResponse(phq9, state, {
      status: 'in-progress',
      subject: { reference: `Patient/${patient.id}` },
    });
    const ok = await api<{ issue: { severity: string }[] }>('POST', 'QuestionnaireResponse/$validate', response);
    expect(ok.status).toBe(200);
    expect(ok.body.issue.filter((i) => i.severity === 'error')).toEqual([]);
    expect(validateResponse(phq9, response)).toEqual([]);

    // Structurally fine but wrong for the questionnaire: the server accepts it, the renderer's validator does not.
    const wrong: QuestionnaireResponse = {
      ...response,
      item: [{ linkId: 'phq9-items', item: [{ linkId: '44250-9', answer: [{ valueString: 'often' }] }] }],
    };
    const serverSays = await api<{ issue: { severity: string }[] }>('POST', 'QuestionnaireResponse/$validate', wrong);
    expect(serverSays.body.issue.filter((i) => i.severity === 'error')).toEqual([]);
    expect(validateResponse(phq9, wrong).map((i) => i.message)).toEqual([
      'The answer is not one of the options of "44250-9"',
    ]);

    // And a structurally broken response is refused by the server.
    const broken = await api<{ issue: { severity: string }[] }>('POST', 'QuestionnaireResponse/$validate', {
      ...response,
      status: 'half-done',
    });
    expect(broken.body.issue.some((i) => i.severity === 'error')).toBe(true);
  });
});
