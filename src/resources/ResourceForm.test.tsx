import { screen, render, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { Patient } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { SchemaLoader } from '../../schema-engine';
import { recordedSource } from '../../schema-engine/test-support/recordedDefinitions';
import { ResourceForm, type ResourceFormProps } from './ResourceForm';
import { setSchemaLoader } from './typeSchema';
import { FhirClientContext } from './useFhirClient';

const client = {} as FhirClient;
const loader = new SchemaLoader(recordedSource());
setSchemaLoader(client, loader);

const stored: Patient = {
  resourceType: 'Patient',
  id: 'p1',
  meta: { versionId: '3', lastUpdated: '2024-01-01T00:00:00Z', profile: ['urn:x'] },
  extension: [{ url: 'urn:unknown-extension', valueString: 'kept' }],
  modifierExtension: [{ url: 'urn:modifier', valueBoolean: true }],
  contained: [{ resourceType: 'Organization', id: 'org', name: 'Inside' }],
  identifier: [{ system: 'urn:mrn', value: '123' }],
  name: [{ use: 'official', given: ['Ann', 'Marie'], family: 'Smith', _given: [null, { id: 'g2' }] } as never],
  birthDate: '1980-02-03',
  _birthDate: { extension: [{ url: 'urn:birth-time', valueDateTime: '1980-02-03T04:05:06Z' }] },
  gender: 'female',
} as Patient;

async function renderForm(props: Partial<ResourceFormProps> = {}) {
  const schema = await loader.loadType('Patient');
  const onSubmit = vi.fn();
  const onPatch = vi.fn();
  const onDelete = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <FhirClientContext.Provider value={client}>
        <ResourceForm
          schema={schema}
          defaultValue={stored}
          onSubmit={onSubmit}
          onPatch={onPatch}
          onDelete={onDelete}
          {...props}
        />
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
  await screen.findByLabelText('Family');
  return { onSubmit, onPatch, onDelete, user: userEvent.setup({ delay: null }) };
}

describe('ResourceForm', { timeout: 30_000 }, () => {
  it('shows read-only Resource Type and ID and saves an untouched resource unchanged (loss-free)', async () => {
    const { onSubmit, user } = await renderForm();
    expect(screen.getByLabelText('Resource Type')).toHaveValue('Patient');
    expect(screen.getByLabelText('Resource Type')).toBeDisabled();
    expect(screen.getByLabelText('ID')).toHaveValue('p1');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(onSubmit).toHaveBeenCalledWith(stored);
  });

  it('changes only the edited element and keeps primitive extensions', async () => {
    const { onSubmit, user } = await renderForm();
    const family = screen.getByLabelText('Family');
    await user.clear(family);
    await user.type(family, 'Jones');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    const saved = onSubmit.mock.calls[0][0] as Patient;
    expect(saved.name?.[0].family).toBe('Jones');
    expect({ ...saved, name: undefined }).toEqual({ ...stored, name: undefined });
    expect((saved.name?.[0] as { _given?: unknown })._given).toEqual([null, { id: 'g2' }]);
  });

  it('adds array items up to max and removes them only above min', async () => {
    const { onSubmit, user } = await renderForm();
    await user.click(screen.getByRole('button', { name: 'Add Telecom' }));
    const telecom = screen.getByRole('group', { name: 'Telecom' });
    await user.type(within(telecom).getByLabelText('Value'), '555-0100');
    await user.click(screen.getByRole('button', { name: 'Remove Name 1' }));
    await user.click(screen.getByRole('button', { name: 'Update' }));
    const saved = onSubmit.mock.calls[0][0] as Patient;
    expect(saved.telecom).toEqual([{ value: '555-0100' }]);
    expect(saved.name).toBeUndefined();
    // gender is 0..1: a single input, no add button.
    expect(screen.queryByRole('button', { name: 'Add Gender' })).not.toBeInTheDocument();
  });

  it('shows a server issue under the field whose path matches, ignoring array indexes', async () => {
    await renderForm({
      outcome: {
        resourceType: 'OperationOutcome',
        issue: [
          { severity: 'error', code: 'invalid', details: { text: 'Invalid date' }, expression: ['Patient.birthDate'] },
          { severity: 'error', code: 'invalid', details: { text: 'Bad name' }, expression: ['Patient.name[0]'] },
        ],
      },
    });
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid date');
    const birthDate = screen.getByLabelText('Birth Date');
    expect(birthDate).toHaveAccessibleDescription('Invalid date');
    expect(within(screen.getByRole('group', { name: 'Name' })).getByText('Bad name')).toBeInTheDocument();
  });

  it('disables policy read-only fields with "Read Only", shows (empty), and leaves hidden fields out', async () => {
    await renderForm({
      defaultValue: { ...stored, identifier: undefined } as Patient,
      readonlyFields: ['identifier'],
      hiddenFields: ['birthDate'],
    });
    expect(screen.getByText(/Identifier.*\(Read Only\)/)).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Identifier' })).getByText('(empty)')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Identifier' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Birth Date')).not.toBeInTheDocument();
  });

  it('offers Patch and Delete (after confirmation) under More actions', async () => {
    const { onPatch, onDelete, user } = await renderForm();
    await user.click(screen.getByRole('button', { name: 'More actions' }));
    await user.click(screen.getByRole('menuitem', { name: 'Patch' }));
    expect(onPatch).toHaveBeenCalledWith(stored);
    await user.click(screen.getByRole('button', { name: 'More actions' }));
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    expect(onDelete).not.toHaveBeenCalled();
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(onDelete).toHaveBeenCalled());
  });

  it('asks for a required boolean (StructureDefinition.abstract) as Yes/No with nothing chosen, and saves the choice', async () => {
    const schema = await loader.loadType('StructureDefinition');
    const onSubmit = vi.fn();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <FhirClientContext.Provider value={client}>
          <ResourceForm
            schema={schema}
            defaultValue={{ resourceType: 'StructureDefinition' } as never}
            onSubmit={onSubmit}
          />
        </FhirClientContext.Provider>
      </QueryClientProvider>,
    );
    const user = userEvent.setup({ delay: null });
    const abstract = await screen.findByRole('radiogroup', { name: /^Abstract/ });
    // No silent default: neither choice is made, and the field says a choice is needed.
    expect(within(abstract).getByRole('radio', { name: 'Yes (true)' })).not.toBeChecked();
    expect(within(abstract).getByRole('radio', { name: 'No (false)' })).not.toBeChecked();
    expect(abstract).toHaveAccessibleDescription('Choose Yes or No');
    expect(screen.queryByRole('checkbox', { name: 'Abstract' })).toBeNull();
    await user.click(within(abstract).getByRole('radio', { name: 'No (false)' }));
    expect(abstract).not.toHaveAccessibleDescription('Choose Yes or No');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(onSubmit.mock.lastCall?.[0]).toMatchObject({ resourceType: 'StructureDefinition', abstract: false });
    // An optional boolean (experimental) stays a checkbox that sends nothing until ticked.
    expect(screen.getByRole('checkbox', { name: 'Experimental' })).not.toBeChecked();
    expect(onSubmit.mock.lastCall?.[0]).not.toHaveProperty('experimental');
  });

  it("names what an added backbone row lacks under its field (Appointment's Participant 1: Status), sending nothing", async () => {
    const schema = await loader.loadType('Appointment');
    const onSubmit = vi.fn();
    const onInvalid = vi.fn();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <FhirClientContext.Provider value={client}>
          <ResourceForm
            schema={schema}
            defaultValue={{ resourceType: 'Appointment' } as never}
            onSubmit={onSubmit}
            onInvalid={onInvalid}
          />
        </FhirClientContext.Provider>
      </QueryClientProvider>,
    );
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Add Participant' }));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(onSubmit).not.toHaveBeenCalled();
    const participant = screen.getByRole('group', { name: 'Participant' });
    expect(within(participant).getByText('Participant 1: Status is required')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Participant 1: Status is required (Appointment.participant[0].status)',
    );
    expect(screen.getByRole('alert')).not.toHaveTextContent('"participant"');
    expect(onInvalid).toHaveBeenCalledTimes(1);
    // A row with content is kept as typed and still asked for its status.
    await user.type(within(participant).getByLabelText('Start'), '2030-01-01');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(within(participant).getByLabelText('Start')).toHaveValue('2030-01-01');
    expect(within(participant).getByText('Participant 1: Status is required')).toBeInTheDocument();
  });

  it('refuses a future birth date on Patch too, under the field', async () => {
    const { onPatch, user } = await renderForm();
    const birthDate = screen.getByLabelText('Birth Date');
    await user.clear(birthDate);
    await user.type(birthDate, '2999-01');
    await user.click(screen.getByRole('button', { name: 'More actions' }));
    await user.click(screen.getByRole('menuitem', { name: 'Patch' }));
    expect(onPatch).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Birth Date')).toHaveAccessibleDescription('Birth date cannot be in the future');
    expect(screen.getByLabelText('Birth Date')).toHaveValue('2999-01');
  });
});
