import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { Observation, OperationOutcome, Patient, Resource } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { SchemaLoader, type TypeSchema } from '../../schema-engine';
import { recordedSource } from '../../schema-engine/test-support/recordedDefinitions';
import { ResourceForm } from '../resources/ResourceForm';
import { setSchemaLoader } from '../resources/typeSchema';
import { FhirClientContext } from '../resources/useFhirClient';

const searchResources = vi.fn(async () => [{ resourceType: 'Patient', id: 'p9', name: [{ family: 'Found' }] }]);
const client = { searchResources } as unknown as FhirClient;
const loader = new SchemaLoader(recordedSource());
setSchemaLoader(client, loader);

const bpUrl = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-blood-pressure';
const patientUrl = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient';
const raceUrl = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-race';
const loinc = 'http://loinc.org';
const vitalSigns = {
  coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }],
};
const mmHg = { system: 'http://unitsofmeasure.org', code: 'mm[Hg]', unit: 'mm[Hg]' };

const storedBp: Observation = {
  resourceType: 'Observation',
  id: 'bp1',
  meta: { versionId: '1', profile: [bpUrl] },
  status: 'final',
  category: [{ text: 'Home reading' }, vitalSigns],
  code: { coding: [{ system: loinc, code: '85354-9' }] },
  subject: { reference: 'Patient/p1' },
  effectiveDateTime: '2024-05-01',
  component: [
    // An unsliced component first: it must keep its place and its unknown data.
    {
      code: { coding: [{ system: 'urn:local', code: 'cuff' }] },
      valueString: 'large',
      _valueString: { id: 'x' },
    } as never,
    { code: { coding: [{ system: loinc, code: '8480-6' }] }, valueQuantity: { value: 120, ...mmHg } },
    {
      code: { coding: [{ system: loinc, code: '8462-4' }] },
      valueQuantity: { value: 80, ...mmHg },
      modifierExtension: [{ url: 'urn:modifier', valueBoolean: true }],
    },
  ],
};

async function renderForm(
  profile: string,
  defaultValue: Resource,
  outcome?: OperationOutcome,
  change: (schema: TypeSchema) => TypeSchema = (schema) => schema,
) {
  const schema = change(await loader.loadProfile(profile));
  const onSubmit = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <FhirClientContext.Provider value={client}>
        <ResourceForm schema={schema} defaultValue={defaultValue} outcome={outcome} onSubmit={onSubmit} />
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
  await screen.findByLabelText('Resource Type');
  return { onSubmit, user: userEvent.setup({ delay: null }) };
}

function slice(name: string): HTMLElement {
  return screen.getByRole('group', { name });
}

describe('sliced elements in the resource editor', { timeout: 30_000 }, () => {
  it('shows each blood pressure slice as its own group: required marker, fixed code, no add or remove at 1..1', async () => {
    await renderForm(bpUrl, storedBp);
    const systolic = await waitFor(() => slice('Systolic'));
    expect(within(systolic).getByText(/Systolic \*/)).toBeInTheDocument();
    expect(within(systolic).getByText('(1..1)')).toBeInTheDocument();
    // The profile's short text says what the slice is.
    expect(within(systolic).getByText('· Systolic Blood Pressure')).toBeInTheDocument();
    // The component's code and, inside its Quantity, the unit's system and code are fixed by the slice.
    expect(within(systolic).getAllByText('Code: fixed by the profile')).toHaveLength(2);
    const unitSystem = within(systolic).getByRole('textbox', { name: /^System/ });
    expect(unitSystem).toBeDisabled();
    expect(unitSystem).toHaveValue('http://unitsofmeasure.org');
    expect(within(systolic).getByRole('textbox', { name: /^Unit/ })).toBeEnabled();
    // Min 1, max 1: neither removable nor addable.
    expect(within(systolic).queryByRole('button', { name: /Remove Systolic/ })).toBeNull();
    expect(within(systolic).queryByRole('button', { name: /Add Systolic/ })).toBeNull();
    expect(within(slice('Diastolic')).getByText(/Diastolic \*/)).toBeInTheDocument();
    // Each entry's inputs have their own ids, so every label names its own input.
    expect(within(slice('Diastolic')).getByRole('spinbutton', { name: /Value/ })).toHaveValue(80);
    expect(within(slice('Systolic')).getByRole('spinbutton', { name: /Value/ })).toHaveValue(120);
    // The unsliced component is listed as the ordinary array after the slices (open slicing).
    const others = slice('Other Component');
    expect(within(others).getByRole('button', { name: 'Remove Other Component 1' })).toBeInTheDocument();
    expect(within(others).getByRole('button', { name: 'Add Other Component' })).toBeInTheDocument();
    // Category: the VSCat slice's coding is fixed (read-only); the other category stays editable.
    const category = slice('VSCat');
    expect(within(category).getByText(/Coding.*\(fixed by the profile\)/)).toBeInTheDocument();
    expect(within(slice('Other Category')).getByRole('button', { name: 'Remove Other Category 1' })).toBeEnabled();
  });

  it('saves an untouched profiled resource unchanged, and an edited slice value in place (order and unknown data kept)', async () => {
    const { onSubmit, user } = await renderForm(bpUrl, storedBp);
    await waitFor(() => slice('Systolic'));
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(onSubmit).toHaveBeenLastCalledWith(storedBp);

    const systolicValue = within(slice('Systolic')).getByRole('spinbutton', { name: /Value/ });
    await user.clear(systolicValue);
    await user.type(systolicValue, '135');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    const saved = onSubmit.mock.lastCall?.[0] as Observation;
    expect(saved.component?.[0]).toEqual(storedBp.component?.[0]);
    expect(saved.component?.[1].valueQuantity).toEqual({ value: 135, ...mmHg });
    expect(saved.component?.[2]).toEqual(storedBp.component?.[2]);
    expect(saved.category).toEqual(storedBp.category);
  });

  it('closed slicing offers no other values, and keeps the ones it does not show', async () => {
    const closed = (schema: TypeSchema): TypeSchema => ({
      ...schema,
      topLevel: schema.topLevel.map((element) =>
        element.name === 'component' && element.slicing
          ? { ...element, slicing: { ...element.slicing, rules: 'closed' } }
          : element,
      ),
    });
    const { onSubmit, user } = await renderForm(bpUrl, storedBp, undefined, closed);
    await waitFor(() => slice('Systolic'));
    expect(screen.queryByRole('group', { name: 'Other Component' })).toBeNull();
    expect(screen.getByRole('group', { name: 'Other Category' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(onSubmit).toHaveBeenLastCalledWith(storedBp);
  });

  it('removes an unsliced value without touching the slices', async () => {
    const { onSubmit, user } = await renderForm(bpUrl, storedBp);
    await user.click(await screen.findByRole('button', { name: 'Remove Other Component 1' }));
    await user.click(screen.getByRole('button', { name: 'Update' }));
    const saved = onSubmit.mock.lastCall?.[0] as Observation;
    expect(saved.component).toEqual(storedBp.component?.slice(1));
  });

  it('an empty slice offers Add with its fixed code, and a slice issue shows under the slice', async () => {
    const observation: Observation = { ...storedBp, component: [storedBp.component?.[2] as never] };
    const outcome: OperationOutcome = {
      resourceType: 'OperationOutcome',
      issue: [
        {
          severity: 'error',
          code: 'structure',
          details: { text: 'Slice systolic: at least 1 required, found 0' },
          expression: ['Observation.component:systolic'],
        },
      ],
    };
    const { onSubmit, user } = await renderForm(bpUrl, observation, outcome);
    const systolic = await waitFor(() => slice('Systolic'));
    expect(within(systolic).getByText('(none)')).toBeInTheDocument();
    expect(within(systolic).getByText('Slice systolic: at least 1 required, found 0')).toBeInTheDocument();
    expect(within(slice('Diastolic')).queryByText(/at least 1 required/)).toBeNull();
    await user.click(within(systolic).getByRole('button', { name: 'Add Systolic' }));
    await user.type(within(slice('Systolic')).getByRole('spinbutton', { name: /Value/ }), '118');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    const saved = onSubmit.mock.lastCall?.[0] as Observation;
    // The new systolic entry goes before the diastolic one (slices keep their order).
    expect(saved.component?.map((c) => c.code.coding?.[0].code)).toEqual(['8480-6', '8462-4']);
    expect(saved.component?.[0].valueQuantity).toEqual({ value: 118, system: mmHg.system, code: mmHg.code });
  });

  it("a reference to a profile (US Core subject → us-core-patient) searches the profile's base type", async () => {
    const { user } = await renderForm(bpUrl, { ...storedBp, subject: undefined } as Observation);
    const subject = await screen.findByRole('combobox', { name: /^Subject/ });
    expect(screen.queryByLabelText('Subject type')).toBeNull();
    await user.type(subject, 'Fou');
    await waitFor(() =>
      expect(searchResources).toHaveBeenCalledWith('Patient', { name: 'Fou', _count: '10' }, expect.anything()),
    );
  });

  it('US Core Patient extensions: each slice with its url fixed, nested race slices, unknown extensions kept', async () => {
    const patient: Patient = {
      resourceType: 'Patient',
      id: 'pt1',
      meta: { profile: [patientUrl] },
      extension: [{ url: 'urn:unknown', valueString: 'kept' }],
      identifier: [{ system: 'urn:mrn', value: '1' }],
      name: [{ family: 'Slice' }],
      gender: 'female',
    };
    const { onSubmit, user } = await renderForm(patientUrl, patient);
    const birthsex = await waitFor(() => slice('Birthsex'));
    expect(within(slice('Other Extension')).getByRole('button', { name: 'Remove Other Extension 1' })).toBeEnabled();
    // 0..1 extension slices: addable once, removable (above min 0).
    await user.click(await within(birthsex).findByRole('button', { name: 'Add Birthsex' }));
    const url = await within(slice('Birthsex')).findByLabelText(/^Url/);
    expect(url).toHaveValue('http://hl7.org/fhir/us/core/StructureDefinition/us-core-birthsex');
    expect(url).toBeDisabled();
    expect(within(slice('Birthsex')).queryByRole('button', { name: 'Add Birthsex' })).toBeNull();
    expect(within(slice('Birthsex')).getByRole('button', { name: 'Remove Birthsex 1' })).toBeInTheDocument();

    // Race (complex): a new entry starts with its required nested text slice.
    await user.click(await within(slice('Race')).findByRole('button', { name: 'Add Race' }));
    const text = await within(slice('Race')).findByRole('group', { name: 'Text' });
    expect(within(text).getByText(/Text \*/)).toBeInTheDocument();
    expect(within(text).queryByRole('button', { name: /Remove Text/ })).toBeNull();
    await user.type(within(text).getByRole('textbox', { name: /Value/ }), 'Asian');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    const saved = onSubmit.mock.lastCall?.[0] as Patient;
    expect(saved.extension?.[0]).toEqual({ url: 'urn:unknown', valueString: 'kept' });
    expect(saved.extension).toContainEqual({ url: raceUrl, extension: [{ url: 'text', valueString: 'Asian' }] });
    // Birthsex added without a value is kept as its url only until a value is chosen.
    expect(saved.extension?.map((e) => e.url)).toEqual([
      'urn:unknown',
      raceUrl,
      'http://hl7.org/fhir/us/core/StructureDefinition/us-core-birthsex',
    ]);
  });

  it('US Core Patient.identifier (1..*): the group and its first entry are required, further entries are not', async () => {
    const patient: Patient = {
      resourceType: 'Patient',
      id: 'pt2',
      meta: { profile: [patientUrl] },
      identifier: [
        { system: 'urn:mrn', value: '1' },
        { system: 'urn:ssn', value: '2' },
      ],
      name: [{ family: 'Minimum' }],
      gender: 'male',
    };
    const { user } = await renderForm(patientUrl, patient);
    const identifier = await waitFor(() => slice('Identifier'));
    expect(within(identifier).getByText('Identifier *')).toBeInTheDocument();
    expect(within(identifier).getByText('Identifier 1 *')).toBeInTheDocument();
    expect(within(identifier).getByText('Identifier 2')).toBeInTheDocument();
    expect(within(identifier).queryByText('Identifier 2 *')).toBeNull();
    // The first entry can go while another is left (min counts entries): the remove buttons say so.
    expect(within(identifier).getByRole('button', { name: 'Remove Identifier 1' })).toBeEnabled();
    await user.click(within(identifier).getByRole('button', { name: 'Add Identifier' }));
    expect(within(identifier).getByText('Identifier 3')).toBeInTheDocument();
    expect(within(identifier).queryByText('Identifier 3 *')).toBeNull();
  });
});
