import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AllergyIntolerance, Condition, MedicationRequest, Observation, Practitioner } from '@medplum/fhirtypes';
import { localDay } from '../../../data-provider/rules';
import { renderSummary, summaryServer } from './summaryTestSupport';

const alice: Practitioner = {
  resourceType: 'Practitioner',
  id: 'alice',
  name: [{ given: ['Alice'], family: 'Smith' }],
};

async function openDialog(user: ReturnType<typeof userEvent.setup>, button: string | RegExp) {
  await user.click(await screen.findByRole('button', { name: button }));
  return screen.getByRole('dialog');
}

const dateInput = (dialog: HTMLElement) => dialog.querySelector('input[type="date"]') as HTMLInputElement;

describe('Problem modal', { timeout: 30_000 }, () => {
  it('needs a Dx Date, then saves a problem-list Condition and the section shows it', async () => {
    const user = userEvent.setup();
    const server = summaryServer();
    renderSummary(server);
    const dialog = await openDialog(user, 'Add problem');
    await user.type(within(dialog).getByRole('combobox', { name: 'Problem' }), 'Hypertension');
    const dx = dateInput(dialog);
    await user.clear(dx);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Dx Date is required')).toBeInTheDocument();
    expect(server.posted('Condition')).toEqual([]);

    await user.type(dx, '2021-06-01');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Problem added');
    const [condition] = server.posted('Condition') as Condition[];
    expect(condition).toMatchObject({
      subject: { reference: 'Patient/p1' },
      category: [{ coding: [{ code: 'problem-list-item' }] }],
      code: { text: 'Hypertension' },
      clinicalStatus: { coding: [{ code: 'active' }] },
      onsetDateTime: '2021-06-01',
    });
    expect(await screen.findByRole('button', { name: /^Edit problem Hypertension/ })).toHaveTextContent(
      'Dx 1 Jun 2021',
    );
  });

  it('starts the Dx Date at today, editable, and refuses one in the future under the field', async () => {
    const user = userEvent.setup();
    const server = summaryServer();
    renderSummary(server);
    const dialog = await openDialog(user, 'Add problem');
    const dx = dateInput(dialog);
    expect(dx).toHaveValue(localDay());
    expect(within(dialog).getByRole('combobox', { name: 'Clinical status' })).toHaveTextContent('active');
    await user.type(within(dialog).getByRole('combobox', { name: 'Problem' }), 'Migraine');
    fireEvent.change(dx, { target: { value: '2035-01-01' } });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(dx).toHaveAccessibleDescription('Dx Date cannot be in the future');
    expect(dx).toHaveAttribute('aria-invalid', 'true');
    expect(server.posted('Condition')).toEqual([]);
    expect(dx).toHaveValue('2035-01-01');

    fireEvent.change(dx, { target: { value: localDay() } });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Problem added');
    expect(server.posted('Condition')[0]).toMatchObject({ code: { text: 'Migraine' }, onsetDateTime: localDay() });
  });

  it('edits an existing problem with a PUT of the same resource', async () => {
    const user = userEvent.setup();
    const server = summaryServer();
    server.store.set('Condition', [
      {
        resourceType: 'Condition',
        id: 'c1',
        subject: { reference: 'Patient/p1' },
        code: { coding: [{ system: 'http://snomed.info/sct', code: '195967001', display: 'Asthma' }] },
        clinicalStatus: { coding: [{ code: 'active' }] },
        onsetDateTime: '2010-02-03',
      },
    ]);
    renderSummary(server);
    const dialog = await openDialog(user, /^Edit problem Asthma/);
    await user.click(within(dialog).getByRole('combobox', { name: 'Clinical status' }));
    await user.click(screen.getByRole('option', { name: 'resolved' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Problem updated');
    const put = server.fake.callsTo('PUT', /Condition\/c1$/);
    expect(put).toHaveLength(1);
    const body = JSON.parse(put[0]!.body as string) as Condition;
    expect(body.code?.coding?.[0]?.code).toBe('195967001');
    expect(body.clinicalStatus?.coding?.[0]?.code).toBe('resolved');
  });
});

describe('Allergy modal', { timeout: 30_000 }, () => {
  it('shows the server’s issue under its field and keeps what was typed', async () => {
    const user = userEvent.setup();
    const server = summaryServer();
    server.failWrites('AllergyIntolerance', [
      { expression: ['AllergyIntolerance.reaction[0].manifestation[0]'], text: 'Reaction too vague' },
      { text: 'Checked by the pharmacy rules' },
    ]);
    renderSummary(server);
    const dialog = await openDialog(user, 'Add allergy');
    await user.type(within(dialog).getByRole('combobox', { name: 'Allergen' }), 'Penicillin');
    await user.type(within(dialog).getByRole('textbox', { name: 'Reaction' }), 'rash');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Reaction too vague')).toBeInTheDocument();
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Checked by the pharmacy rules');
    expect(within(dialog).getByRole('combobox', { name: 'Allergen' })).toHaveValue('Penicillin');
    expect(within(dialog).getByRole('textbox', { name: 'Reaction' })).toHaveValue('rash');

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Allergy added');
    const saved = server.posted('AllergyIntolerance') as AllergyIntolerance[];
    expect(saved).toHaveLength(2);
    expect(saved[1]).toMatchObject({
      patient: { reference: 'Patient/p1' },
      code: { text: 'Penicillin' },
      clinicalStatus: { coding: [{ code: 'active' }] },
      reaction: [{ manifestation: [{ text: 'rash' }] }],
    });
    expect(await screen.findByRole('button', { name: /^Edit allergy Penicillin/ })).toHaveTextContent('rash');
  });

  it('refuses an onset in the future with a message under the field, and keeps what was typed', async () => {
    const user = userEvent.setup();
    const server = summaryServer();
    renderSummary(server);
    const dialog = await openDialog(user, 'Add allergy');
    await user.type(within(dialog).getByRole('combobox', { name: 'Allergen' }), 'Penicillin');
    const onset = dateInput(dialog);
    fireEvent.change(onset, { target: { value: '2031-05-05' } });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(onset).toHaveAccessibleDescription('The onset date cannot be in the future');
    expect(onset).toHaveAttribute('aria-invalid', 'true');
    expect(server.posted('AllergyIntolerance')).toEqual([]);
    expect(onset).toHaveValue('2031-05-05');
    expect(within(dialog).getByRole('combobox', { name: 'Allergen' })).toHaveValue('Penicillin');
  });

  it('needs an allergen', async () => {
    const user = userEvent.setup();
    const server = summaryServer();
    renderSummary(server);
    const dialog = await openDialog(user, 'Add allergy');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByRole('combobox', { name: 'Allergen' })).toHaveAccessibleDescription(
      'Allergen is required',
    );
    expect(server.posted('AllergyIntolerance')).toEqual([]);
  });
});

describe('Medication modal', { timeout: 30_000 }, () => {
  it('starts active, like allergies and problems, and orders it as the signed-in profile', async () => {
    const user = userEvent.setup();
    const server = summaryServer();
    vi.spyOn(server.client, 'getProfile').mockReturnValue(alice);
    renderSummary(server);
    const dialog = await openDialog(user, 'Add medication');
    expect(within(dialog).getByRole('combobox', { name: /Status/ })).toHaveTextContent('active');
    await user.type(within(dialog).getByRole('combobox', { name: 'Medication' }), 'Lisinopril 10 mg');

    await user.click(within(dialog).getByRole('combobox', { name: /Status/ }));
    const options = screen.getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual([
      'active',
      'stopped',
      'on-hold',
      'cancelled',
      'completed',
      'entered-in-error',
      'draft',
      'unknown',
    ]);
    await user.click(screen.getByRole('option', { name: 'active' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Medication added');
    expect(server.posted('MedicationRequest')[0]).toMatchObject({
      status: 'active',
      intent: 'order',
      subject: { reference: 'Patient/p1' },
      requester: { reference: 'Practitioner/alice', display: 'Alice Smith' },
      medicationCodeableConcept: { text: 'Lisinopril 10 mg' },
    } satisfies Partial<MedicationRequest>);
    const item = await screen.findByRole('button', { name: /^Edit medication Lisinopril 10 mg/ });
    expect(within(item).getByText('active').closest('[data-status-color]')).toHaveAttribute(
      'data-status-color',
      'blue',
    );
  });

  it('says "Not signed in" and saves nothing without a profile', async () => {
    const user = userEvent.setup();
    const server = summaryServer();
    vi.spyOn(server.client, 'getProfile').mockReturnValue(undefined);
    renderSummary(server);
    const dialog = await openDialog(user, 'Add medication');
    await user.type(within(dialog).getByRole('combobox', { name: 'Medication' }), 'Metformin');
    await user.click(within(dialog).getByRole('combobox', { name: /Status/ }));
    await user.click(screen.getByRole('option', { name: 'draft' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Not signed in');
    expect(server.posted('MedicationRequest')).toEqual([]);
    expect(within(dialog).getByRole('combobox', { name: 'Medication' })).toHaveValue('Metformin');
  });
});

describe('Smoking status and sexual orientation modals', { timeout: 30_000 }, () => {
  it('name an imported “Former smoker” as the dialog does: Ex-smoker (app-spec §9)', async () => {
    const user = userEvent.setup();
    const server = summaryServer();
    server.store.set('Observation', [
      {
        resourceType: 'Observation',
        id: 'smoking-1',
        status: 'final',
        code: { coding: [{ system: 'http://loinc.org', code: '72166-2' }], text: 'Tobacco smoking status' },
        subject: { reference: 'Patient/p1' },
        effectiveDateTime: '2020-05-01',
        valueCodeableConcept: {
          coding: [{ system: 'http://snomed.info/sct', code: '8517006', display: 'Former smoker' }],
          text: 'Former smoker',
        },
      },
    ]);
    renderSummary(server);
    const section = screen.getByRole('region', { name: 'Smoking Status' });
    await waitFor(() => expect(section).toHaveTextContent('Ex-smoker'));
    expect(section).not.toHaveTextContent('Former smoker');
    const dialog = await openDialog(user, 'Edit smoking status');
    expect(within(dialog).getByRole('radio', { name: 'Ex-smoker' })).toBeChecked();
  });

  it('need one choice and record a final social-history Observation', async () => {
    const user = userEvent.setup();
    const server = summaryServer();
    renderSummary(server);
    const dialog = await openDialog(user, 'Edit smoking status');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Choose one')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: 'Ex-smoker' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Smoking status saved');
    const [observation] = server.posted('Observation') as Observation[];
    expect(observation).toMatchObject({
      status: 'final',
      category: [{ coding: [{ code: 'social-history' }] }],
      code: { coding: [{ system: 'http://loinc.org', code: '72166-2' }] },
      valueCodeableConcept: { coding: [{ system: 'http://snomed.info/sct', code: '8517006' }] },
    });
    const section = screen.getByRole('region', { name: 'Smoking Status' });
    await waitFor(() => expect(section).toHaveTextContent('Ex-smoker'));

    const orientation = await openDialog(user, 'Edit sexual orientation');
    expect(within(orientation).getAllByRole('radio')).toHaveLength(6);
    await user.click(within(orientation).getByRole('radio', { name: 'Asked but no answer' }));
    await user.click(within(orientation).getByRole('button', { name: 'Save' }));
    await screen.findByText('Sexual orientation saved');
    const second = server.posted('Observation')[1] as Observation;
    expect(second.code.coding?.[0]?.code).toBe('76690-7');
    expect(second.valueCodeableConcept?.coding?.[0]).toMatchObject({
      system: 'http://terminology.hl7.org/CodeSystem/v3-NullFlavor',
      code: 'ASKU',
    });
  });
});
