import { useState } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Bundle, Patient, Reference, Resource } from '@medplum/fhirtypes';
import { FhirClient } from '../../data-provider/client';
import { FakeFetch, jsonResponse } from '../../data-provider/client/fakeFetch';
import { ageOf, formatDate } from '../../data-provider/formatting';
import { FhirClientContext } from '../resources/useFhirClient';
import { ReferenceInput } from './ReferenceInput';

const mrType = { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MR' }] };
const wendyA: Patient = {
  resourceType: 'Patient',
  id: '5c1f0a2b-0000-4000-8000-00000000000a',
  name: [{ given: ['Wendy'], family: 'Littel' }],
  birthDate: '1972-03-12',
  gender: 'female',
  identifier: [{ type: mrType, value: '12345' }],
};
const wendyB: Patient = {
  resourceType: 'Patient',
  id: '9d8e7f6a-0000-4000-8000-00000000000b',
  name: [{ given: ['Wendy'], family: 'Littel' }],
  birthDate: '1990-11-02',
  gender: 'female',
};
const nameless: Patient = { resourceType: 'Patient', id: '0badc0de-0000-4000-8000-00000000000c' };

const searchset = (...resources: Resource[]): Bundle => ({
  resourceType: 'Bundle',
  type: 'searchset',
  entry: resources.map((resource) => ({ resource, search: { mode: 'match' } })),
});

/** The real client over a FakeFetch that answers Patient searches with `patients`. */
function patientServer(patients: Patient[]) {
  const fake = new FakeFetch();
  fake.on('GET', /\/fhir\/R4\/Patient\?/, jsonResponse(searchset(...patients)));
  const client = new FhirClient({ baseUrl: 'https://hearth.test/', fetch: fake.fetch, autoBatchTime: 0 });
  return { client, fake };
}

function renderReference(client: FhirClient, initial?: Reference) {
  const changes: (Reference | undefined)[] = [];
  function Harness() {
    const [value, setValue] = useState<Reference | undefined>(initial);
    return (
      <ReferenceInput
        label="Subject"
        path="Encounter.subject"
        targetProfiles={['http://hl7.org/fhir/StructureDefinition/Patient']}
        value={value}
        onChange={(next) => {
          changes.push(next);
          setValue(next);
        }}
      />
    );
  }
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <FhirClientContext.Provider value={client}>
        <Harness />
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
  return { changes, user: userEvent.setup({ delay: null }) };
}

const born = (patient: Patient) => `${formatDate(patient.birthDate)} (${ageOf(patient.birthDate)})`;

describe('ReferenceInput labels', { timeout: 30_000 }, () => {
  it('options show the display, then a quiet line that tells namesakes apart; the full reference is the title', async () => {
    const { client, fake } = patientServer([wendyA, wendyB]);
    const { changes, user } = renderReference(client);
    const field = screen.getByRole('combobox', { name: 'Subject' });
    await user.type(field, 'Wendy');
    await waitFor(() => {
      const search = fake.callsTo('GET', /\/fhir\/R4\/Patient\?/).map((call) => new URL(call.url).searchParams);
      expect(search.some((params) => params.get('name') === 'Wendy' && params.get('_count') === '10')).toBe(true);
    });

    const options = await screen.findAllByRole('option', { name: /^Wendy Littel/ });
    expect(options).toHaveLength(2);
    const [first, second] = options;
    expect(first).toHaveAttribute('title', `Patient/${wendyA.id}`);
    expect(second).toHaveAttribute('title', `Patient/${wendyB.id}`);
    expect(within(first).getByText('Wendy Littel')).toBeInTheDocument();
    expect(within(first).getByText(`${born(wendyA)} · female · MRN: 12345`)).toBeInTheDocument();
    expect(within(second).getByText(`${born(wendyB)} · female`)).toBeInTheDocument();
    // No UUID is read out: the accessible name is the display, then the second line.
    expect(first).toHaveAccessibleName(`Wendy Littel ${born(wendyA)} · female · MRN: 12345`);
    expect(first.textContent).not.toContain(wendyA.id);

    await user.click(second);
    expect(changes.at(-1)).toEqual({ reference: `Patient/${wendyB.id}`, display: 'Wendy Littel' });
    expect(field).toHaveValue('Wendy Littel');
  });

  it('the keyboard still moves through the two-line options and chooses one', async () => {
    const { client } = patientServer([wendyA, wendyB]);
    const { changes, user } = renderReference(client);
    const field = screen.getByRole('combobox', { name: 'Subject' });
    await user.type(field, 'Wendy');
    expect(await screen.findAllByRole('option', { name: /^Wendy Littel/ })).toHaveLength(2);
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(changes.at(-1)).toEqual({ reference: `Patient/${wendyB.id}`, display: 'Wendy Littel' });
    expect(field).toHaveValue('Wendy Littel');
  });

  it('an option without a name shows its reference, with the type and a short id below', async () => {
    const { client } = patientServer([nameless]);
    const { changes, user } = renderReference(client);
    await user.click(screen.getByRole('combobox', { name: 'Subject' }));
    const option = await screen.findByRole('option', { name: /^Patient\/0badc0de/ });
    expect(option).toHaveAttribute('title', `Patient/${nameless.id}`);
    expect(within(option).getByText(`Patient/${nameless.id}`)).toBeInTheDocument();
    expect(within(option).getByText('Patient · 0badc0de')).toBeInTheDocument();
    await user.click(option);
    expect(changes.at(-1)).toEqual({ reference: `Patient/${nameless.id}`, display: `Patient/${nameless.id}` });
  });

  it('the chosen value reads as its display alone', async () => {
    const { client } = patientServer([]);
    renderReference(client, { reference: `Patient/${wendyA.id}`, display: 'Wendy Littel' });
    expect(screen.getByRole('combobox', { name: 'Subject' })).toHaveValue('Wendy Littel');
  });

  it('a value without a display reads as the reference', async () => {
    const { client, fake } = patientServer([]);
    const { user } = renderReference(client, { reference: `Patient/${nameless.id}` });
    const field = screen.getByRole('combobox', { name: 'Subject' });
    expect(field).toHaveValue(`Patient/${nameless.id}`);
    await user.clear(field);
    await user.type(field, 'zz');
    await waitFor(() => expect(fake.callsTo('GET', /name=zz/)).not.toHaveLength(0));
    expect(await screen.findByText('Nothing found')).toBeInTheDocument();
  });
});
