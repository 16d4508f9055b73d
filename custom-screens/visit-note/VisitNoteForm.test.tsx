import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Patient, Practitioner, Questionnaire, QuestionnaireResponse } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { FhirClientContext } from '../../src/resources/useFhirClient';
import { parseAnswerBackup, visitNoteBackupKey, type AnswerBackup } from './answerBackupRules';
import { VisitNoteForm } from './VisitNoteForm';

afterEach(() => window.sessionStorage.clear());

const questionnaire: Questionnaire = {
  resourceType: 'Questionnaire',
  id: 'q1',
  url: 'https://hearth.test/visit-note',
  status: 'active',
  title: 'Visit note',
  item: [{ linkId: 'details', text: 'Details', type: 'string' }],
};
const patient: Patient = { resourceType: 'Patient', id: 'p1' };
const alice: Practitioner = { resourceType: 'Practitioner', id: 'a' };
const key = visitNoteBackupKey('Practitioner/a', 'p1', questionnaire);
/** The draft saves take a second after the last change. */
const afterSave = { timeout: 4000 };

const stored = () => parseAnswerBackup(window.sessionStorage.getItem(key));
const typed = (backup: AnswerBackup | undefined) => backup?.response.item?.[0]?.answer?.[0]?.valueString;

function response(text: string, extra: Partial<QuestionnaireResponse> = {}): QuestionnaireResponse {
  return {
    resourceType: 'QuestionnaireResponse',
    status: 'in-progress',
    questionnaire: questionnaire.url,
    subject: { reference: 'Patient/p1' },
    item: [{ linkId: 'details', text: 'Details', answer: [{ valueString: text }] }],
    ...extra,
  };
}

/** A server that refuses draft saves until `reachable` is set; it numbers versions as it stores them. */
function draftServer() {
  const state = { reachable: false, version: 0 };
  const store = async (resource: QuestionnaireResponse): Promise<QuestionnaireResponse> => {
    if (!state.reachable) throw new Error('Failed to fetch');
    state.version += 1;
    return {
      ...resource,
      id: resource.id ?? 'd1',
      meta: { versionId: String(state.version), lastUpdated: new Date().toISOString() },
    };
  };
  const client = {
    createResource: vi.fn(store),
    updateResource: vi.fn(store),
  };
  return { state, client };
}

function renderNote(
  client: ReturnType<typeof draftServer>['client'],
  props: {
    draft?: QuestionnaireResponse;
    profile?: Practitioner;
    submit?: () => Promise<void>;
    questionnaire?: Questionnaire;
  } = {},
) {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <FhirClientContext.Provider value={client as unknown as FhirClient}>
        <VisitNoteForm
          questionnaire={props.questionnaire ?? questionnaire}
          patient={patient}
          draft={props.draft}
          profile={props.profile ?? alice}
          submit={props.submit ?? (async () => undefined)}
        />
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
}

const details = () => screen.getByLabelText('Details');
const status = () => screen.getByTestId('draft-status');

describe('VisitNoteForm: answers the server does not have are kept in the browser', () => {
  it('keeps every change in the browser, and removes the copy once the server has stored it', async () => {
    const user = userEvent.setup({ delay: null });
    const { state, client } = draftServer();
    renderNote(client);
    await user.type(await screen.findByLabelText('Details'), 'Hot flashes');
    // At once, before the draft save a second later.
    expect(typed(stored())).toBe('Hot flashes');
    expect(stored()?.response.subject).toEqual({ reference: 'Patient/p1' });
    await waitFor(() => expect(status()).toHaveTextContent('Draft not saved: Failed to fetch'), afterSave);
    expect(typed(stored())).toBe('Hot flashes');

    state.reachable = true;
    await user.type(details(), ' at night');
    expect(typed(stored())).toBe('Hot flashes at night');
    await waitFor(() => expect(status()).toHaveTextContent('Draft saved'), afterSave);
    expect(client.createResource).toHaveBeenLastCalledWith(
      expect.objectContaining({ item: response('Hot flashes at night').item }),
    );
    expect(window.sessionStorage.getItem(key)).toBeNull();
  });

  it('restores the copy after the page is opened again, says so above the form, and saves it now', async () => {
    const user = userEvent.setup({ delay: null });
    const { state, client } = draftServer();
    const first = renderNote(client);
    await user.type(await screen.findByLabelText('Details'), 'Migraine with aura');
    await waitFor(() => expect(status()).toHaveTextContent('Draft not saved'), afterSave);
    first.unmount();
    expect(typed(stored())).toBe('Migraine with aura');

    state.reachable = true;
    renderNote(client);
    const notice = await screen.findByTestId('recovered-answers');
    expect(notice).toHaveTextContent('Recovered answers that were not saved');
    expect(details()).toHaveValue('Migraine with aura');
    // Saved without waiting for another change; the notice then says so and the copy goes.
    await waitFor(() => expect(notice).toHaveTextContent('They are now saved as the draft.'));
    expect(status()).toHaveTextContent('Draft saved');
    expect(client.createResource).toHaveBeenLastCalledWith(
      expect.objectContaining({ item: response('Migraine with aura').item }),
    );
    expect(window.sessionStorage.getItem(key)).toBeNull();
  });

  it('restores the copy over the server draft it continues, updating that draft', async () => {
    const { state, client } = draftServer();
    state.reachable = true;
    const draft = response('Saved', { id: 'd1', meta: { versionId: '4', lastUpdated: '2026-03-01T10:00:00Z' } });
    window.sessionStorage.setItem(
      key,
      JSON.stringify({
        // Typed on top of version 4 by a browser whose clock is behind: the version decides.
        changedAt: '2026-03-01T09:00:00Z',
        basis: { id: 'd1', versionId: '4' },
        response: response('Saved, and more typed offline'),
      } satisfies AnswerBackup),
    );
    renderNote(client, { draft });
    expect(await screen.findByTestId('recovered-answers')).toBeInTheDocument();
    expect(details()).toHaveValue('Saved, and more typed offline');
    await waitFor(() => expect(client.updateResource).toHaveBeenCalledTimes(1));
    expect(client.updateResource.mock.calls[0][0]).toMatchObject({
      id: 'd1',
      item: response('Saved, and more typed offline').item,
    });
    expect(client.createResource).not.toHaveBeenCalled();
  });

  it('opens the server draft when it is newer than the browser copy, and drops the copy', async () => {
    const { client } = draftServer();
    const draft = response('Saved later on another machine', {
      id: 'd1',
      meta: { versionId: '5', lastUpdated: '2026-03-01T10:00:00Z' },
    });
    window.sessionStorage.setItem(
      key,
      JSON.stringify({
        changedAt: '2026-03-01T09:00:00Z',
        basis: { id: 'd1', versionId: '4' },
        response: response('Typed here earlier'),
      } satisfies AnswerBackup),
    );
    renderNote(client, { draft });
    expect(await screen.findByLabelText('Details')).toHaveValue('Saved later on another machine');
    expect(screen.queryByTestId('recovered-answers')).toBeNull();
    await waitFor(() => expect(window.sessionStorage.getItem(key)).toBeNull());
  });

  it("reads the signed-in account's copy, never another account's", async () => {
    const { client } = draftServer();
    const copy = (text: string) =>
      JSON.stringify({ changedAt: new Date().toISOString(), response: response(text) } satisfies AnswerBackup);
    const theirs = visitNoteBackupKey('Practitioner/b', 'p1', questionnaire);
    const theirCopy = copy('Typed by b');
    window.sessionStorage.setItem(theirs, theirCopy);
    window.sessionStorage.setItem(key, copy('Typed by a'));
    renderNote(client);
    expect(await screen.findByLabelText('Details')).toHaveValue('Typed by a');
    // Nor is theirs touched: it stays theirs until they sign out.
    expect(window.sessionStorage.getItem(theirs)).toBe(theirCopy);
  });

  it('keeps the copy when the submit fails, and removes it once the note is submitted', async () => {
    const user = userEvent.setup({ delay: null });
    const { client } = draftServer();
    const submit = vi.fn<() => Promise<void>>().mockRejectedValueOnce(new Error('Failed to fetch'));
    renderNote(client, { submit });
    await user.type(await screen.findByLabelText('Details'), 'Ready to submit');
    const form = screen.getByRole('form', { name: 'Visit note' });
    await user.click(within(form).getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText(/The visit note was not submitted: Failed to fetch/)).toBeInTheDocument();
    expect(typed(stored())).toBe('Ready to submit');

    submit.mockResolvedValueOnce(undefined);
    await user.click(within(form).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(window.sessionStorage.getItem(key)).toBeNull());
  });
});

describe('VisitNoteForm: the date of visit', () => {
  // The spec's visit note opens on 2023-10-19; the date is the first question.
  const dated: Questionnaire = {
    ...questionnaire,
    item: [
      { linkId: 'visit-date', text: 'Date of visit', type: 'date', initial: [{ valueDate: '2023-10-19' }] },
      ...(questionnaire.item ?? []),
    ],
  };

  it('refuses a date in the future: says so, keeps the note unsubmitted and returns to the date', async () => {
    const user = userEvent.setup({ delay: null });
    const { client } = draftServer();
    const submit = vi.fn<() => Promise<void>>().mockResolvedValue(undefined);
    renderNote(client, { submit, questionnaire: dated });
    const date = await screen.findByLabelText('Date of visit');
    expect(date).toHaveValue('2023-10-19');
    expect(screen.queryByRole('alert')).toBeNull();

    fireEvent.change(date, { target: { value: '2099-12-31' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('The date of visit cannot be in the future.');
    const form = screen.getByRole('form', { name: 'Visit note' });
    await user.click(within(form).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(date).toHaveFocus());
    expect(submit).not.toHaveBeenCalled();
    expect(screen.getByRole('alert')).toHaveTextContent('The date of visit cannot be in the future.');

    fireEvent.change(date, { target: { value: '2023-10-20' } });
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    await user.click(within(form).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
    expect(submit.mock.calls[0]).toEqual([
      expect.objectContaining({
        item: expect.arrayContaining([
          expect.objectContaining({ linkId: 'visit-date', answer: [{ valueDate: '2023-10-20' }] }),
        ]),
      }),
    ]);
  });
});
