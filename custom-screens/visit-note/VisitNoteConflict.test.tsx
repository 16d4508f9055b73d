import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import type { Patient, Practitioner, Questionnaire, QuestionnaireResponse } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import type { RecordedCall } from '../../data-provider/client/fakeFetch';
import { FhirClientContext } from '../../src/resources/useFhirClient';
import { parseAnswerBackup, visitNoteBackupKey } from './answerBackupRules';
import { VisitNoteForm } from './VisitNoteForm';
import { visitNoteTransaction } from './visitNoteTransaction';
import { visitNoteServer, type VisitNoteServer } from './visitNoteTestServer';

/**
 * The QA walk that lost a visit note: one account, two tabs on the same note. Each tab is its own
 * FhirClient (over one shared versioned store that answers 412 on a stale If-Match, as the server
 * does) and its own form. Nothing a tab saved may be overwritten by the other without a choice, and
 * a submitted note is never changed by a draft save.
 */

afterEach(() => window.sessionStorage.clear());

const questionnaire: Questionnaire = {
  resourceType: 'Questionnaire',
  id: 'q1',
  url: 'https://hearth.test/visit-note',
  status: 'active',
  title: 'Visit note',
  item: [{ linkId: 'details', text: 'Details', type: 'string' }],
};
const wendy: Patient = { resourceType: 'Patient', id: 'p1', name: [{ given: ['Wendy'], family: 'Ward' }] };
const alice: Practitioner = { resourceType: 'Practitioner', id: 'a', name: [{ given: ['Alice'], family: 'Carter' }] };
const backupKey = visitNoteBackupKey('Practitioner/a', 'p1', questionnaire);
/** The draft saves take a second after the last change. */
const afterSave = { timeout: 4000 };

function setup() {
  const server = visitNoteServer();
  server.put(wendy, alice);
  return server;
}

/** One browser tab with the visit note open (the draft as the page's search found it when it opened). */
function openTab(server: VisitNoteServer, name: string, draft?: QuestionnaireResponse) {
  const { client, fake } = server.tab('Practitioner/a');
  // What VisitNotePage does on Submit: the completed note and its follow-up task in one transaction.
  const submit = async (response: QuestionnaireResponse) => {
    await client.executeBatch(
      visitNoteTransaction(response, { reference: 'Patient/p1' }, { reference: 'Practitioner/a' }),
    );
  };
  const view = render(
    <section aria-label={name}>
      <QueryClientProvider client={new QueryClient()}>
        <FhirClientContext.Provider value={client as FhirClient}>
          <VisitNoteForm questionnaire={questionnaire} patient={wendy} draft={draft} profile={alice} submit={submit} />
        </FhirClientContext.Provider>
      </QueryClientProvider>
    </section>,
  );
  const tab = within(screen.getByRole('region', { name }));
  return {
    fake,
    view,
    tab,
    details: () => tab.getByLabelText('Details') as HTMLInputElement,
    status: () => tab.getByTestId('draft-status'),
    submitButton: () => tab.getByRole('button', { name: 'Submit' }),
  };
}

const text = (response: QuestionnaireResponse | undefined) => response?.item?.[0]?.answer?.[0]?.valueString;
const onlyDraft = (server: VisitNoteServer) =>
  server.get<QuestionnaireResponse>('QuestionnaireResponse/r1') as QuestionnaireResponse;
const puts = (tab: ReturnType<typeof openTab>) => tab.fake.calls.filter((call) => call.method === 'PUT');
/** The If-Match a call sent (header names keep their case in the test DOM). */
const ifMatch = (call: RecordedCall | undefined) =>
  Object.entries(call?.headers ?? {}).find(([name]) => name.toLowerCase() === 'if-match')?.[1];

/** Steps 1–3 of the QA walk: A saves, B resumes A's draft, A saves again, then B's save. */
async function twoTabsEditingOneDraft(user: ReturnType<typeof userEvent.setup>) {
  const server = setup();
  const a = openTab(server, 'Tab A');
  await user.type(a.details(), 'Tab A text');
  await waitFor(() => expect(a.status()).toHaveTextContent('Draft saved'), afterSave);
  expect(text(onlyDraft(server))).toBe('Tab A text');

  const b = openTab(server, 'Tab B', onlyDraft(server));
  expect(b.details()).toHaveValue('Tab A text');

  await user.type(a.details(), ', second edit');
  await waitFor(() => expect(onlyDraft(server).meta?.versionId).toBe('2'), afterSave);
  await waitFor(() => expect(a.status()).toHaveTextContent('Draft saved'), afterSave);

  await user.clear(b.details());
  await user.type(b.details(), 'Tab B text');
  return { server, a, b };
}

describe('visit note in two tabs: a draft saved elsewhere is never overwritten silently', () => {
  it("refuses B's save on A's newer version, keeps B's text and offers the choice", async () => {
    const user = userEvent.setup({ delay: null });
    const { server, a, b } = await twoTabsEditingOneDraft(user);

    // B's save is sent — and refused: the server keeps A's version, nothing is overwritten.
    await waitFor(() => expect(puts(b)).toHaveLength(1), afterSave);
    await waitFor(() => expect(b.status()).not.toHaveTextContent('Saving draft'));
    expect(text(onlyDraft(server))).toBe('Tab A text, second edit');
    const notice = await b.tab.findByTestId('draft-conflict');
    expect(notice).toHaveTextContent('This visit note was changed in another tab or by someone else.');
    expect(notice).toHaveTextContent('Your text here is kept');
    expect(notice).not.toHaveTextContent(/version mismatch|If-Match/i);
    expect(b.status()).not.toHaveTextContent('Draft saved');
    // B's save was conditional on the version B had read, and the server kept A's.
    expect(puts(b).map((call) => ifMatch(call))).toEqual(['W/"1"']);
    expect(text(onlyDraft(server))).toBe('Tab A text, second edit');
    expect(server.history('QuestionnaireResponse/r1')).toHaveLength(2);
    // B's text stays on the page and in its browser copy.
    expect(b.details()).toHaveValue('Tab B text');
    expect(text(parseAnswerBackup(window.sessionStorage.getItem(backupKey))?.response)).toBe('Tab B text');

    // Autosave has stopped in B: more typing sends nothing.
    await user.type(b.details(), ' and more');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(puts(b)).toHaveLength(1);
    expect(text(onlyDraft(server))).toBe('Tab A text, second edit');

    // Load their version: A's text replaces B's, and saving goes on from A's version.
    await user.click(within(notice).getByRole('button', { name: 'Load their version' }));
    await waitFor(() => expect(b.details()).toHaveValue('Tab A text, second edit'));
    expect(b.tab.queryByTestId('draft-conflict')).toBeNull();
    await user.type(b.details(), ', read by B');
    await waitFor(() => expect(text(onlyDraft(server))).toBe('Tab A text, second edit, read by B'), afterSave);
    expect(ifMatch(puts(b).at(-1))).toBe('W/"2"');
    expect(a.details()).toHaveValue('Tab A text, second edit');
  });

  it('"Keep mine and save" saves B\'s text on top of the latest version; A\'s Submit is then refused in plain words', async () => {
    const user = userEvent.setup({ delay: null });
    const { server, a, b } = await twoTabsEditingOneDraft(user);
    const notice = await b.tab.findByTestId('draft-conflict', {}, afterSave);

    await user.click(within(notice).getByRole('button', { name: 'Keep mine and save' }));
    await waitFor(() => expect(text(onlyDraft(server))).toBe('Tab B text'));
    expect(ifMatch(puts(b).at(-1))).toBe('W/"2"');
    await waitFor(() => expect(b.status()).toHaveTextContent('Draft saved'));
    expect(b.tab.queryByTestId('draft-conflict')).toBeNull();

    // A still holds version 2: its submit is refused, in words a clinician understands, and keeps A's answers.
    await user.click(a.submitButton());
    const problem = await a.tab.findByText(/The visit note was not submitted: it was changed in another tab/);
    expect(problem).not.toHaveTextContent(/version mismatch|If-Match|Bundle\.entry/i);
    expect(a.details()).toHaveValue('Tab A text, second edit');
    expect(await a.tab.findByTestId('draft-conflict')).toHaveTextContent('changed in another tab');
    expect(onlyDraft(server)).toMatchObject({ status: 'in-progress', meta: { versionId: '3' } });
    expect(server.get('Task/r2')).toBeUndefined();
  });
});

describe('visit note in two tabs: a submitted note is never changed by a draft save', () => {
  it("B's draft save after A submitted writes nothing and says the note was submitted, by whom", async () => {
    const user = userEvent.setup({ delay: null });
    const server = setup();
    const a = openTab(server, 'Tab A');
    await user.type(a.details(), 'Tab A text');
    await waitFor(() => expect(a.status()).toHaveTextContent('Draft saved'), afterSave);
    const b = openTab(server, 'Tab B', onlyDraft(server));

    await user.click(a.submitButton());
    await waitFor(() => expect(onlyDraft(server).status).toBe('completed'));
    const submitted = onlyDraft(server);

    await user.type(b.details(), ', one more line from B');
    await waitFor(() => expect(puts(b)).toHaveLength(1), afterSave);
    await waitFor(() => expect(b.status()).not.toHaveTextContent('Saving draft'));
    expect(onlyDraft(server)).toEqual(submitted);
    const notice = await b.tab.findByTestId('draft-conflict');
    await waitFor(() => expect(notice).toHaveTextContent(/This visit note was submitted at .+ by Alice Carter\./));
    expect(notice).not.toHaveTextContent('Keep mine');
    // Nothing was written over the completed note; its history ends completed.
    expect(onlyDraft(server)).toEqual(submitted);
    expect(server.history<QuestionnaireResponse>('QuestionnaireResponse/r1').map((v) => v.status)).toEqual([
      'in-progress',
      'completed',
    ]);
    // B's text is still shown, read-only.
    expect(b.details()).toHaveValue('Tab A text, one more line from B');
    expect(b.details()).toBeDisabled();

    // Starting a new note with B's text creates another draft; the submitted one stays as it is.
    const writesBefore = server.writes().length;
    await user.click(within(notice).getByRole('button', { name: 'Start a new note with my text' }));
    await waitFor(() => expect(b.status()).toHaveTextContent('Draft saved'));
    const created = server.writes().slice(writesBefore);
    expect(created.map((call) => call.method)).toEqual(['POST']);
    expect(onlyDraft(server)).toEqual(submitted);
    const newDraft = server.get<QuestionnaireResponse>('QuestionnaireResponse/r3');
    expect(newDraft).toMatchObject({ status: 'in-progress' });
    expect(text(newDraft)).toBe('Tab A text, one more line from B');
  });
});
