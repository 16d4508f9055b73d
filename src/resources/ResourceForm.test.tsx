import { cleanup, screen, render, waitFor, within } from '@testing-library/react';
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

/** A new resource of `type` in the form, with `formClient` answering its inputs' requests. */
async function renderNew(type: string, value: Record<string, unknown> = {}, formClient: FhirClient = client) {
  if (formClient !== client) setSchemaLoader(formClient, loader);
  const schema = await loader.loadType(type);
  const onSubmit = vi.fn();
  const onInvalid = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <FhirClientContext.Provider value={formClient}>
        <ResourceForm
          schema={schema}
          defaultValue={{ resourceType: type, ...value } as never}
          onSubmit={onSubmit}
          onInvalid={onInvalid}
        />
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
  await screen.findByRole('button', { name: 'Create' });
  return { onSubmit, onInvalid, user: userEvent.setup({ delay: null }) };
}

/** Ids used by more than one element of the page. */
function duplicateIds(): string[] {
  const ids = [...document.body.querySelectorAll('[id]')].map((element) => element.id);
  return [...new Set(ids.filter((id, index) => ids.indexOf(id) !== index))];
}

/** Labels whose `for` names no input (a MUI select's label names its combobox, which it labels by aria-labelledby). */
function danglingLabels(): string[] {
  return [...document.querySelectorAll('label[for]')]
    .map((label) => label.getAttribute('for') as string)
    .filter((id) => {
      const target = document.getElementById(id);
      return !target || !(['INPUT', 'TEXTAREA'].includes(target.tagName) || target.getAttribute('role') === 'combobox');
    });
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

  it("adds a row inside an empty optional backbone element at once (Consent's Provision: Add Actor, Add Data, Add Provision)", async () => {
    const { onSubmit, onInvalid, user } = await renderNew('Consent');
    const provision = screen.getAllByRole('group', { name: 'Provision' })[0];
    await user.click(within(provision).getByRole('button', { name: 'Add Actor' }));
    // The row is there with its inputs, and Remove for it.
    expect(within(provision).getByRole('button', { name: 'Remove Actor 1' })).toBeInTheDocument();
    const actor = within(provision).getByRole('group', { name: 'Actor 1' });
    await user.click(within(provision).getByRole('button', { name: 'Add Data' }));
    expect(within(provision).getByRole('button', { name: 'Remove Data 1' })).toBeInTheDocument();
    await user.click(within(provision).getByRole('button', { name: 'Add Provision' }));
    expect(within(provision).getByRole('button', { name: 'Remove Provision 1' })).toBeInTheDocument();
    // What is typed into the new row is kept: the row is asked for its required reference.
    await user.type(within(within(actor).getByRole('group', { name: /^Role/ })).getByLabelText('Text'), 'Witness');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(onInvalid).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('alert')).toHaveTextContent('Provision › Actor 1: Reference is required');
    // Removing the rows leaves an empty Provision, which is not sent.
    await user.click(within(provision).getByRole('button', { name: 'Remove Actor 1' }));
    await user.click(within(provision).getByRole('button', { name: 'Remove Data 1' }));
    await user.click(within(provision).getByRole('button', { name: 'Remove Provision 1' }));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(onSubmit).toHaveBeenCalledWith({ resourceType: 'Consent' });
  });

  it('keeps a code typed into a coded field whose value list the server cannot expand (ImagingStudy series modality)', async () => {
    const notFound = Object.assign(new Error('ValueSet not found'), { status: 404 });
    const valueSetExpand = vi.fn(async () => {
      throw notFound;
    });
    const searchOne = vi.fn(async () => undefined);
    const { onSubmit, user } = await renderNew('ImagingStudy', {}, { valueSetExpand, searchOne } as never);
    await user.click(screen.getByRole('button', { name: 'Add Series' }));
    const series = screen.getByRole('group', { name: 'Series 1' });
    await user.type(within(series).getByLabelText('Uid *'), '1.2.3');
    const modality = within(series).getByRole('combobox', { name: 'Modality' });
    await user.type(modality, 'CT');
    await user.click(within(series).getByLabelText('Uid *'));
    expect(modality).toHaveValue('CT');
    expect(within(series).getAllByText('Value list not available: enter a code')[0]).toBeInTheDocument();
    // Enter in the coded field keeps its code and does not submit the form.
    await user.clear(modality);
    await user.type(modality, 'http://dicom.nema.org/resources/ontology/DCM|MR{Enter}');
    expect(onSubmit).not.toHaveBeenCalled();
    expect(modality).toHaveValue('MR');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.queryByText(/Modality is required/)).not.toBeInTheDocument();
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0][0].series).toEqual([
      { uid: '1.2.3', modality: { system: 'http://dicom.nema.org/resources/ontology/DCM', code: 'MR' } },
    ]);
  });

  it('gives each rendered input its own id, and each label names its input', async () => {
    // A choice's type switch and a Reference's target type (Consent.source[x], ChargeItem.product[x]).
    await renderNew('Consent', { sourceReference: { reference: 'Consent/c1' } });
    expect(duplicateIds()).toEqual([]);
    expect(danglingLabels()).toEqual([]);
    expect(document.getElementById('field-Consent-source-type')).toBeInTheDocument();
    expect(document.getElementById('field-Consent-sourceReference')).toBeInTheDocument();
    cleanup();
    await renderNew('ChargeItem');
    expect(duplicateIds()).toEqual([]);
    expect(danglingLabels()).toEqual([]);
    cleanup();
    // Entries of an array: each meta.profile entry, each series and its instances.
    await renderNew('ImagingStudy', {
      meta: { profile: ['urn:a', 'urn:b'] },
      series: [
        { uid: '1', modality: { code: 'CT' }, instance: [{ uid: 'i1', sopClass: { code: 'x' } }] },
        { uid: '2', modality: { code: 'MR' }, instance: [{ uid: 'i2', sopClass: { code: 'y' } }] },
      ],
    });
    expect(await screen.findByLabelText('Profile 1')).toHaveValue('urn:a');
    expect(screen.getByLabelText('Profile 2')).toHaveValue('urn:b');
    expect(screen.getByLabelText('Profile 2').id).toBe('field-ImagingStudy-meta-profile-1');
    expect(duplicateIds()).toEqual([]);
    expect(danglingLabels()).toEqual([]);
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
