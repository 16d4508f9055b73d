import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AllergyIntolerance, MedicationRequest, Practitioner } from '@medplum/fhirtypes';
import { renderSummary, summaryServer, type SummaryServer } from './summaryTestSupport';

/**
 * The Add medication modal checks an order before it is written: an active allergy it may set off
 * (by name and a small class table), another active order of the same medication. The summary
 * never folds two active orders of one medication into one row.
 */

const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const alice: Practitioner = { resourceType: 'Practitioner', id: 'alice', name: [{ given: ['Alice'] }] };

const penicillinAllergy: AllergyIntolerance = {
  resourceType: 'AllergyIntolerance',
  id: 'pen',
  patient: { reference: 'Patient/p1' },
  code: {
    text: 'Allergy to penicillin',
    coding: [{ system: 'http://snomed.info/sct', code: '91936005', display: 'Allergy to penicillin' }],
  },
  clinicalStatus: { coding: [{ code: 'active' }] },
  reaction: [{ manifestation: [{ text: 'Hives' }] }],
};

const order = (id: string, status: MedicationRequest['status'], code: string, display: string, authoredOn: string) =>
  ({
    resourceType: 'MedicationRequest',
    id,
    status,
    intent: 'order',
    subject: { reference: 'Patient/p1' },
    medicationCodeableConcept: { text: display, coding: [{ system: RXNORM, code, display }] },
    authoredOn,
  }) satisfies MedicationRequest;

const amlodipine = order('aml', 'active', '197361', 'amlodipine 5 MG Oral Tablet', '2026-11-03T11:00:00.000Z');
/** A course of amoxicillin/clavulanate years ago: the clinic's record offers it as a suggestion. */
const oldAugmentin = order(
  'aug',
  'stopped',
  '562251',
  'Amoxicillin 250 MG / Clavulanate 125 MG Oral Tablet',
  '2012-05-01T10:00:00Z',
);

function setUp() {
  const user = userEvent.setup();
  const server = summaryServer();
  vi.spyOn(server.client, 'getProfile').mockReturnValue(alice);
  server.store.set('AllergyIntolerance', [penicillinAllergy]);
  server.store.set('MedicationRequest', [amlodipine, oldAugmentin]);
  return { user, server };
}

async function openAddMedication(user: ReturnType<typeof userEvent.setup>) {
  await screen.findByRole('button', { name: /^Edit medication amlodipine/ });
  await user.click(screen.getByRole('button', { name: 'Add medication' }));
  return screen.getByRole('dialog', { name: 'Add medication' });
}

const posted = (server: SummaryServer) => server.posted('MedicationRequest') as MedicationRequest[];

describe('Add medication: allergy check', { timeout: 30_000 }, () => {
  it('warns of amoxicillin/clavulanate (RxNorm 562251) for an allergy to penicillin, and Cancel adds nothing', async () => {
    const { user, server } = setUp();
    renderSummary(server);
    const dialog = await openAddMedication(user);
    await user.type(within(dialog).getByRole('combobox', { name: 'Medication' }), 'amoxi');
    await user.click(await screen.findByRole('option', { name: /RxNorm · 562251/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    const alert = await within(dialog).findByText(
      'Possible allergy: Allergy to penicillin (Hives) — amoxicillin is a penicillin',
    );
    expect(alert).toBeVisible();
    // Honest about what it is.
    expect(dialog).toHaveTextContent('not a drug-interaction database');
    expect(within(dialog).queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Add anyway' })).toBeInTheDocument();
    expect(posted(server)).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posted(server)).toEqual([]);
  });

  it('warns of free-text "penicillin"; Enter does not confirm, "Add anyway" saves it', async () => {
    const { user, server } = setUp();
    renderSummary(server);
    const dialog = await openAddMedication(user);
    const field = within(dialog).getByRole('combobox', { name: 'Medication' });
    await user.type(field, 'penicillin');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText(
        'Possible allergy: Allergy to penicillin (Hives) — the order names penicillin, the recorded allergen',
      ),
    ).toBeVisible();
    // Enter in the field again: still held.
    await user.type(field, '{Enter}');
    expect(posted(server)).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Add anyway' }));
    await screen.findByText('Medication added');
    expect(posted(server)).toHaveLength(1);
    expect(posted(server)[0]).toMatchObject({ medicationCodeableConcept: { text: 'penicillin' }, status: 'active' });
  });

  it('asks again when the medication is changed after a warning, and saves an unrelated drug at once', async () => {
    const { user, server } = setUp();
    renderSummary(server);
    const dialog = await openAddMedication(user);
    const field = within(dialog).getByRole('combobox', { name: 'Medication' });
    await user.type(field, 'Ampicillin 500 MG');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await within(dialog).findByText(/ampicillin is a penicillin/);
    await user.clear(field);
    await user.type(field, 'Azithromycin 250 MG');
    // The warning was about another drug: it goes, and Save is back.
    expect(within(dialog).queryByText(/ampicillin is a penicillin/)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Medication added');
    expect(posted(server)[0]).toMatchObject({ medicationCodeableConcept: { text: 'Azithromycin 250 MG' } });
  });

  it('says the allergies could not be checked when their search fails, and lets the clinician decide', async () => {
    const { user, server } = setUp();
    server.answerSearches(/^AllergyIntolerance\?patient=Patient\/p1&_count=100$/, 'fail');
    renderSummary(server);
    const dialog = await openAddMedication(user);
    await user.type(within(dialog).getByRole('combobox', { name: 'Medication' }), 'Metformin 500 MG');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(/^Could not check allergies/)).toBeVisible();
    expect(posted(server)).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Add anyway' }));
    await screen.findByText('Medication added');
    expect(posted(server)).toHaveLength(1);
  });
});

describe('Add medication: duplicate orders', { timeout: 30_000 }, () => {
  it('warns of a typed "Amlodipine 5 MG" while an active amlodipine order exists; added anyway, both rows say so', async () => {
    const { user, server } = setUp();
    renderSummary(server);
    const dialog = await openAddMedication(user);
    await user.type(within(dialog).getByRole('combobox', { name: 'Medication' }), 'Amlodipine 5 MG');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText(
        'Maria already has an active order for amlodipine 5 MG Oral Tablet (ordered 3 Nov 2026)',
      ),
    ).toBeVisible();
    expect(posted(server)).toEqual([]);
    // The check asked the server for the active orders, not only the summary's page.
    expect(
      server.fake.calls.some((call) =>
        decodeURIComponent(call.url).includes('MedicationRequest?subject=Patient/p1&status=active&_count=100'),
      ),
    ).toBe(true);

    await user.click(within(dialog).getByRole('button', { name: 'Add anyway' }));
    await screen.findByText('Medication added');
    const medications = screen.getByRole('region', { name: 'Medications' });
    await waitFor(() =>
      expect(within(medications).getAllByRole('button', { name: /^Edit medication (a|A)mlodipine 5 MG/ })).toHaveLength(
        2,
      ),
    );
    for (const row of within(medications).getAllByRole('button', { name: /^Edit medication (a|A)mlodipine 5 MG/ })) {
      expect(row).toHaveTextContent('2 active orders of this medication');
      expect(row).not.toHaveTextContent('earlier order');
    }
  });

  it('a second active order of the same code: its row says "2 active orders", never "1 earlier order"', async () => {
    const { user, server } = setUp();
    renderSummary(server);
    const dialog = await openAddMedication(user);
    await user.type(within(dialog).getByRole('combobox', { name: 'Medication' }), 'amlo');
    await user.click(await screen.findByRole('option', { name: /RxNorm · 197361/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await within(dialog).findByText(/already has an active order for amlodipine 5 MG Oral Tablet/);
    await user.click(within(dialog).getByRole('button', { name: 'Add anyway' }));
    await screen.findByText('Medication added');
    expect(posted(server)[0]?.medicationCodeableConcept?.coding?.[0]?.code).toBe('197361');
    const medications = screen.getByRole('region', { name: 'Medications' });
    const row = await within(medications).findByRole('button', {
      name: /^Edit medication amlodipine 5 MG.*2 active orders/,
    });
    expect(row).toHaveTextContent('2 active orders of this medication');
    expect(medications).not.toHaveTextContent('earlier order');
    expect(row.querySelector('[data-concurrent-orders="2"]')).toBeInTheDocument();
  });

  it('does not warn when the other order of the medication is stopped', async () => {
    const { user, server } = setUp();
    renderSummary(server);
    const dialog = await openAddMedication(user);
    await user.type(within(dialog).getByRole('combobox', { name: 'Medication' }), 'Lisinopril 10 MG');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Medication added');
    expect(posted(server)).toHaveLength(1);
  });
});
