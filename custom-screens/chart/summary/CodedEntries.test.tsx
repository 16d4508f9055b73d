import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type {
  AccessPolicy,
  AllergyIntolerance,
  CodeableConcept,
  Condition,
  MedicationRequest,
  Practitioner,
} from '@medplum/fhirtypes';
import { renderSummary, summaryServer, type SummaryServer } from './summaryTestSupport';

const SNOMED = 'http://snomed.info/sct';
const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';

const alice: Practitioner = { resourceType: 'Practitioner', id: 'alice', name: [{ given: ['Alice'] }] };

const condition = (id: string, code: CodeableConcept, patient = 'Patient/other'): Condition => ({
  resourceType: 'Condition',
  id,
  subject: { reference: patient },
  code,
  clinicalStatus: { coding: [{ code: 'active' }] },
  onsetDateTime: '2020-01-01',
});

/** What the clinic has recorded: the same code twice, a local code, a text-only entry, another name. */
function clinicConditions(server: SummaryServer) {
  server.store.set('Condition', [
    condition('c1', { coding: [{ system: SNOMED, code: '38341003', display: 'Hypertension' }] }),
    condition('c2', { coding: [{ system: SNOMED, code: '38341003', display: 'Hypertension' }], text: 'Hypertension' }),
    condition('c3', {
      coding: [{ system: SNOMED, code: '59621000', display: 'Essential hypertension' }],
      text: 'Hypertensive disorder',
    }),
    condition('c4', {
      coding: [{ system: 'http://example.org/local-codes', code: 'HTN-9', display: 'Hypertension, local' }],
    }),
    condition('c5', { text: 'Hyperlipidaemia' }),
    condition('c6', { coding: [{ system: SNOMED, code: '195967001', display: 'Asthma' }] }),
  ]);
}

async function openDialog(user: ReturnType<typeof userEvent.setup>, button: string | RegExp) {
  await user.click(await screen.findByRole('button', { name: button }));
  return screen.getByRole('dialog');
}

function suggestionSearches(server: SummaryServer, type: string): string[] {
  return server.fake
    .callsTo('GET', new RegExp(`/fhir/R4/${type}\\?`))
    .map((call) => decodeURIComponent(call.url))
    .filter((url) => url.includes('code:text='));
}

describe('Coded problems, allergies and medications', { timeout: 30_000 }, () => {
  it('offers the codes this clinic recorded, each once and the most used first, and saves the chosen coding with its text', async () => {
    const user = userEvent.setup();
    const server = summaryServer();
    clinicConditions(server);
    renderSummary(server);
    const dialog = await openDialog(user, 'Add problem');
    await user.type(within(dialog).getByRole('combobox', { name: 'Problem' }), 'hy');

    const listbox = await screen.findByRole('listbox');
    expect(screen.getByText('Suggestions from problems recorded in this clinic')).toBeInTheDocument();
    const options = within(listbox).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'HypertensionSNOMED CT · 38341003',
      'Essential hypertensionSNOMED CT · 59621000',
      'Hypertension, localhttp://example.org/local-codes · HTN-9',
    ]);
    expect(suggestionSearches(server, 'Condition').at(-1)).toMatch(
      /\/fhir\/R4\/Condition\?code:text=hy&_elements=code&_count=50$/,
    );

    await user.click(options[0]!);
    const field = within(dialog).getByRole('combobox', { name: 'Problem' });
    expect(field).toHaveValue('Hypertension');
    expect(field).toHaveAccessibleDescription('Coded: SNOMED CT 38341003');
    // The Dx Date starts at today: replaced, not appended to.
    const dx = dialog.querySelector('input[type="date"]') as HTMLInputElement;
    await user.clear(dx);
    await user.type(dx, '2021-06-01');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Problem added');
    const [saved] = server.posted('Condition') as Condition[];
    expect(saved?.code).toEqual({
      coding: [{ system: SNOMED, code: '38341003', display: 'Hypertension' }],
      text: 'Hypertension',
    });
  });

  it('saves typed text alone when no suggestion is chosen, and drops a chosen code when the name is changed', async () => {
    const user = userEvent.setup();
    const server = summaryServer();
    vi.spyOn(server.client, 'getProfile').mockReturnValue(alice);
    server.store.set('MedicationRequest', [
      {
        resourceType: 'MedicationRequest',
        id: 'm1',
        status: 'active',
        intent: 'order',
        subject: { reference: 'Patient/other' },
        medicationCodeableConcept: {
          coding: [{ system: RXNORM, code: '314076', display: 'lisinopril 10 MG Oral Tablet' }],
        },
      } satisfies MedicationRequest,
    ]);
    renderSummary(server);
    const dialog = await openDialog(user, 'Add medication');
    const field = within(dialog).getByRole('combobox', { name: 'Medication' });
    await user.type(field, 'lisin');
    expect(await screen.findByRole('option', { name: /lisinopril 10 MG Oral Tablet.*RxNorm · 314076/ })).toBeVisible();
    // Typed on past the suggestion: free text.
    await user.type(field, 'opril 5 mg');
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
    await user.click(within(dialog).getByRole('combobox', { name: /Status/ }));
    await user.click(screen.getByRole('option', { name: 'active' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Medication added');
    expect((server.posted('MedicationRequest')[0] as MedicationRequest).medicationCodeableConcept).toEqual({
      text: 'lisinopril 5 mg',
    });

    // Chosen, then renamed: the field says the code goes, and it does.
    const again = await openDialog(user, 'Add medication');
    const second = within(again).getByRole('combobox', { name: 'Medication' });
    await user.type(second, 'lisin');
    await user.click(await screen.findByRole('option', { name: /RxNorm · 314076/ }));
    expect(second).toHaveAccessibleDescription('Coded: RxNorm 314076');
    await user.type(second, ' daily');
    expect(second).toHaveAccessibleDescription('Name changed: saved as text only, without RxNorm 314076');
    await user.click(within(again).getByRole('combobox', { name: /Status/ }));
    await user.click(screen.getByRole('option', { name: 'draft' }));
    await user.click(within(again).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.posted('MedicationRequest')).toHaveLength(2));
    expect((server.posted('MedicationRequest')[1] as MedicationRequest).medicationCodeableConcept).toEqual({
      text: 'lisinopril 10 MG Oral Tablet daily',
    });
  });

  it('shows the codes of an edited entry, keeps them while the name is unchanged, and says when a new name drops them', async () => {
    const user = userEvent.setup();
    const server = summaryServer();
    const asthma = condition(
      'c1',
      { coding: [{ system: SNOMED, code: '195967001', display: 'Asthma' }] },
      'Patient/p1',
    );
    server.store.set('Condition', [asthma]);
    renderSummary(server);
    const dialog = await openDialog(user, /^Edit problem Asthma/);
    const field = within(dialog).getByRole('combobox', { name: 'Problem' });
    expect(field).toHaveValue('Asthma');
    expect(field).toHaveAccessibleDescription('Coded: SNOMED CT 195967001');
    await user.type(field, ', severe');
    expect(field).toHaveAccessibleDescription('Name changed: saved as text only, without SNOMED CT 195967001');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Problem updated');
    const put = JSON.parse(server.fake.callsTo('PUT', /Condition\/c1$/)[0]!.body as string) as Condition;
    expect(put.code).toEqual({ text: 'Asthma, severe' });
  });

  it('says "Suggestions unavailable" when the search fails, and still saves what was typed', async () => {
    const user = userEvent.setup();
    const server = summaryServer();
    renderSummary(server);
    const dialog = await openDialog(user, 'Add allergy');
    server.failSearches('AllergyIntolerance');
    const field = within(dialog).getByRole('combobox', { name: 'Allergen' });
    await user.type(field, 'Penicillin');
    await waitFor(() => expect(field).toHaveAccessibleDescription('Suggestions unavailable'));
    expect(field).toHaveValue('Penicillin');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Allergy added');
    expect((server.posted('AllergyIntolerance')[0] as AllergyIntolerance).code).toEqual({ text: 'Penicillin' });
  });

  it('searches only the types the caller’s policy lets them search', async () => {
    const user = userEvent.setup();
    const server = summaryServer();
    clinicConditions(server);
    server.store.set('MedicationRequest', [
      {
        resourceType: 'MedicationRequest',
        id: 'm1',
        status: 'active',
        intent: 'order',
        subject: { reference: 'Patient/other' },
        medicationCodeableConcept: { coding: [{ system: RXNORM, code: '860975', display: 'metformin 500 MG' }] },
      } satisfies MedicationRequest,
    ]);
    const policy: AccessPolicy = {
      resourceType: 'AccessPolicy',
      resource: [{ resourceType: 'Patient' }, { resourceType: 'MedicationRequest' }],
    };
    vi.spyOn(server.client, 'getAccessPolicy').mockReturnValue(policy);
    renderSummary(server);

    const medication = await openDialog(user, 'Add medication');
    await user.type(within(medication).getByRole('combobox', { name: 'Medication' }), 'met');
    expect(await screen.findByRole('option', { name: /metformin 500 MG/ })).toBeVisible();
    await user.click(within(medication).getByRole('button', { name: 'Cancel' }));

    // Problems the policy does not include: no section to add one from, and none of them asked for.
    expect(screen.queryByRole('button', { name: 'Add problem' })).not.toBeInTheDocument();
    expect(server.fake.calls.filter((call) => call.url.includes('/fhir/R4/Condition'))).toEqual([]);
    expect(suggestionSearches(server, 'Condition')).toEqual([]);
  });
});
