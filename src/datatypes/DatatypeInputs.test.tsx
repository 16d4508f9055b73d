import { useState } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { FhirClient } from '../../data-provider/client';
import { FhirClientContext } from '../resources/useFhirClient';
import { AddressInput } from './AddressInput';
import { AnnotationInput } from './AnnotationInput';
import { CodeInput } from './CodeInput';
import { CodingInput } from './CodingInput';
import { ContactPointInput } from './ContactPointInput';
import { HumanNameInput } from './HumanNameInput';
import { IdentifierInput } from './IdentifierInput';
import type { InputProps } from './inputProps';
import { MoneyInput } from './MoneyInput';
import { PeriodInput } from './PeriodInput';
import { PrimitiveInput } from './PrimitiveInput';
import { QuantityInput } from './QuantityInput';
import { RangeInput } from './RangeInput';
import { RatioInput } from './RatioInput';
import { ReferenceInput } from './ReferenceInput';
import { TimingInput } from './TimingInput';

// Each input takes InputProps of its own datatype; the harness hands them values of that shape.
type AnyInput = (props: never) => React.ReactElement;

/** Renders one input with its value in state; `changes` records every value it hands back. */
function renderInput(
  Input: AnyInput,
  initial?: unknown,
  extra: Record<string, unknown> = {},
  client = {} as FhirClient,
) {
  const changes: unknown[] = [];
  const Component = Input as unknown as (props: InputProps<unknown> & Record<string, unknown>) => React.ReactElement;
  function Harness() {
    const [value, setValue] = useState<unknown>(initial);
    return (
      <Component
        label="Field"
        path="Test.field"
        value={value}
        onChange={(next: unknown) => {
          changes.push(next);
          setValue(next);
        }}
        {...extra}
      />
    );
  }
  render(
    <QueryClientProvider client={new QueryClient()}>
      <FhirClientContext.Provider value={client}>
        <Harness />
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
  return { changes, last: () => changes[changes.length - 1], user: userEvent.setup({ delay: null }) };
}

async function choose(user: ReturnType<typeof userEvent.setup>, label: string, option: string) {
  await user.click(screen.getByLabelText(label));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('datatype inputs', { timeout: 30_000 }, () => {
  it('HumanName: use list, prefix/given/suffix as space-separated lists', async () => {
    const { last, user } = renderInput(HumanNameInput);
    await choose(user, 'Use', 'maiden');
    await user.type(screen.getByLabelText('Given'), 'Ann Marie');
    await user.type(screen.getByLabelText('Family'), 'Smith');
    expect(last()).toEqual({ use: 'maiden', given: ['Ann', 'Marie'], family: 'Smith' });
    await user.click(screen.getByLabelText('Use'));
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(options).toEqual(['(none)', 'temp', 'old', 'usual', 'official', 'nickname', 'anonymous', 'maiden']);
  });

  it('Address: use, type, two lines, city, state, postal code; extra lines are kept', async () => {
    const { last, user } = renderInput(AddressInput, { line: ['1 Main', 'Apt 2', 'Rear'] });
    await user.clear(screen.getByLabelText('Line 2'));
    await user.type(screen.getByLabelText('Line 2'), 'Apt 3');
    await user.type(screen.getByLabelText('City'), 'Boston');
    await choose(user, 'Type', 'both');
    expect(last()).toEqual({ line: ['1 Main', 'Apt 3', 'Rear'], city: 'Boston', type: 'both' });
  });

  it('ContactPoint and Identifier', async () => {
    const { last, user } = renderInput(ContactPointInput);
    await choose(user, 'System', 'sms');
    await choose(user, 'Use', 'mobile');
    await user.type(screen.getByLabelText('Value'), '555');
    expect(last()).toEqual({ system: 'sms', use: 'mobile', value: '555' });
  });

  it('Identifier keeps fields it does not show', async () => {
    const { last, user } = renderInput(IdentifierInput, { use: 'official', value: '1' });
    await user.type(screen.getByLabelText('System'), 'urn:x');
    expect(last()).toEqual({ use: 'official', value: '1', system: 'urn:x' });
  });

  it('Quantity: comparator list and a decimal value; Range and Ratio are built of quantities', async () => {
    const { last, user } = renderInput(QuantityInput);
    await user.click(screen.getByLabelText('Comparator'));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['(none)', '<', '<=', '>=', '>']);
    await user.click(screen.getByRole('option', { name: '>=' }));
    await user.type(screen.getByLabelText('Value'), '2.5');
    expect(last()).toEqual({ comparator: '>=', value: 2.5 });
  });

  it('Range: low and high without comparators', async () => {
    const { last, user } = renderInput(RangeInput);
    const low = screen.getByRole('group', { name: 'Low' });
    expect(within(low).queryByLabelText('Comparator')).not.toBeInTheDocument();
    await user.type(within(low).getByLabelText('Value'), '1');
    await user.type(within(screen.getByRole('group', { name: 'High' })).getByLabelText('Value'), '9');
    expect(last()).toEqual({ low: { value: 1 }, high: { value: 9 } });
  });

  it('Ratio: numerator and denominator', async () => {
    const { last, user } = renderInput(RatioInput);
    await user.type(within(screen.getByRole('group', { name: 'Numerator' })).getByLabelText('Value'), '1');
    await user.type(within(screen.getByRole('group', { name: 'Denominator' })).getByLabelText('Unit'), 'mL');
    expect(last()).toEqual({ numerator: { value: 1 }, denominator: { unit: 'mL' } });
  });

  it('Money: value and the currency list', async () => {
    const { last, user } = renderInput(MoneyInput);
    await user.click(screen.getByLabelText('Currency'));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      '(none)',
      'USD',
      'EUR',
      'CAD',
      'GBP',
      'AUD',
    ]);
    await user.click(screen.getByRole('option', { name: 'EUR' }));
    await user.type(screen.getByLabelText('Value'), '12');
    expect(last()).toEqual({ currency: 'EUR', value: 12 });
  });

  it('Period: start and end as dateTimes keeping their offset (see DateTimeInput.test.tsx)', async () => {
    const { last, user } = renderInput(PeriodInput, { end: '2024-03-05' });
    expect(screen.getByLabelText('Start picker')).toHaveAttribute('type', 'datetime-local');
    await user.type(screen.getByLabelText('Start'), '2024-03-04T05:06:07+05:30');
    expect(last()).toEqual({ end: '2024-03-05', start: '2024-03-04T05:06:07+05:30' });
  });

  it('Timing: period, period unit and days of week lists', async () => {
    const { last, user } = renderInput(TimingInput);
    await user.type(screen.getByLabelText('Repeat every'), '2');
    await user.click(screen.getByLabelText('Period unit'));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      '(none)',
      's',
      'min',
      'h',
      'd',
      'wk',
      'mo',
      'a',
    ]);
    await user.click(screen.getByRole('option', { name: 'wk' }));
    await user.click(screen.getByLabelText('Days of week'));
    await user.click(await screen.findByRole('option', { name: 'mon' }));
    expect(last()).toEqual({ repeat: { period: 2, periodUnit: 'wk', dayOfWeek: ['mon'] } });
  });

  it('Annotation: text with the placeholder "Annotation text"', async () => {
    const { last, user } = renderInput(AnnotationInput, { time: '2024-01-01' });
    expect(screen.getByPlaceholderText('Annotation text')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Text'), 'line one');
    expect(last()).toEqual({ time: '2024-01-01', text: 'line one' });
  });

  it('primitives: integer steps 1, decimal any, NaN becomes undefined', async () => {
    const { last, user } = renderInput(PrimitiveInput, undefined, { type: 'integer' });
    expect(screen.getByLabelText('Field')).toHaveAttribute('step', '1');
    await user.type(screen.getByLabelText('Field'), '42');
    expect(last()).toBe(42);
    await user.clear(screen.getByLabelText('Field'));
    expect(last()).toBeUndefined();
  });

  it('code: options from ValueSet $expand with the typed filter; "Nothing found" when none', async () => {
    const valueSetExpand = vi.fn(async ({ filter }: { filter?: string }) => ({
      resourceType: 'ValueSet',
      expansion: {
        contains:
          filter === 'zz'
            ? []
            : [{ system: 'http://hl7.org/fhir/administrative-gender', code: 'female', display: 'Female' }],
      },
    }));
    const client = { valueSetExpand } as unknown as FhirClient;
    const { last, user } = renderInput(CodeInput, undefined, { valueSet: 'http://vs|4.0.1' }, client);
    await user.click(screen.getByLabelText('Field'));
    await user.click(await screen.findByRole('option', { name: 'Female (female)' }));
    expect(last()).toBe('female');
    expect(valueSetExpand).toHaveBeenCalledWith(expect.objectContaining({ url: 'http://vs' }), expect.anything());
    await user.clear(screen.getByLabelText('Field'));
    await user.type(screen.getByLabelText('Field'), 'zz');
    expect(await screen.findByText('Nothing found')).toBeInTheDocument();
  });

  it('Coding whose ValueSet the server cannot expand: a typed code is kept on blur, system|code is parsed, a System input is offered', async () => {
    const valueSetExpand = vi.fn(async () => {
      throw Object.assign(new Error('ValueSet not found'), { status: 404 });
    });
    // The server does not hold the ValueSet's definition either: the code system is not known.
    const searchOne = vi.fn(async () => undefined);
    const dicom = 'http://dicom.nema.org/medical/dicom/current/output/chtml/part16/sect_CID_29.html';
    const { last, user, changes } = renderInput(CodingInput, undefined, { valueSet: dicom }, {
      valueSetExpand,
      searchOne,
    } as unknown as FhirClient);
    const field = screen.getByRole('combobox', { name: 'Field' });
    await user.type(field, 'CT');
    expect(await screen.findByText('Value list not available: enter a code')).toBeInTheDocument();
    expect(searchOne).toHaveBeenCalledWith('ValueSet', { url: dicom }, expect.anything());
    await user.tab();
    expect(last()).toEqual({ code: 'CT' });
    expect(field).toHaveValue('CT');
    // No list pops up and nothing is asked per keystroke once the list is known to be unavailable.
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    // system|code gives both.
    await user.clear(field);
    await user.type(field, 'http://dicom.nema.org/resources/ontology/DCM|MR{Enter}');
    expect(last()).toEqual({ system: 'http://dicom.nema.org/resources/ontology/DCM', code: 'MR' });
    expect(field).toHaveValue('MR');
    expect(screen.getByLabelText('System')).toHaveValue('http://dicom.nema.org/resources/ontology/DCM');
    // A bare code typed over the code keeps the system entered beside it.
    await user.tripleClick(field);
    await user.keyboard('US');
    await user.click(screen.getByLabelText('System'));
    expect(last()).toEqual({ system: 'http://dicom.nema.org/resources/ontology/DCM', code: 'US' });
    await user.clear(screen.getByLabelText('System'));
    expect(last()).toEqual({ code: 'US' });
    // Focus and blur without typing hand back nothing.
    const count = changes.length;
    await user.click(field);
    await user.tab();
    expect(changes).toHaveLength(count);
  });

  it('Coding whose ValueSet cannot be expanded but names one code system: a bare code takes that system', async () => {
    const valueSetExpand = vi.fn(async () => {
      throw Object.assign(new Error('Cannot expand'), { status: 422 });
    });
    const searchOne = vi.fn(async () => ({
      resourceType: 'ValueSet',
      url: 'http://vs/one',
      compose: {
        include: [{ system: 'http://snomed.info/sct', filter: [{ property: 'concept', op: 'is-a', value: '1' }] }],
      },
    }));
    const { last, user } = renderInput(CodingInput, undefined, { valueSet: 'http://vs/one' }, {
      valueSetExpand,
      searchOne,
    } as unknown as FhirClient);
    await user.type(screen.getByRole('combobox', { name: 'Field' }), '12345');
    expect(await screen.findByText('Value list not available: enter a code')).toBeInTheDocument();
    await waitFor(() => expect(searchOne).toHaveBeenCalled());
    await user.tab();
    expect(last()).toEqual({ system: 'http://snomed.info/sct', code: '12345' });
    expect(screen.queryByLabelText('System')).not.toBeInTheDocument();
  });

  it('code whose ValueSet the server cannot expand: free text with the hint', async () => {
    const valueSetExpand = vi.fn(async () => {
      throw Object.assign(new Error('ValueSet not found'), { status: 404 });
    });
    const client = { valueSetExpand, searchOne: vi.fn(async () => undefined) } as unknown as FhirClient;
    const { last, user } = renderInput(CodeInput, undefined, { valueSet: 'http://vs/missing' }, client);
    await user.type(screen.getByLabelText('Field'), 'abc');
    expect(await screen.findByText('Value list not available: enter a code')).toBeInTheDocument();
    await user.tab();
    expect(last()).toBe('abc');
  });

  it('Enter in a coded or reference field never submits the form around it', async () => {
    const onSubmit = vi.fn((event: React.FormEvent) => event.preventDefault());
    const client = {
      valueSetExpand: vi.fn(async () => ({ resourceType: 'ValueSet', expansion: { contains: [] } })),
      searchResources: vi.fn(async () => []),
    } as unknown as FhirClient;
    render(
      <QueryClientProvider client={new QueryClient()}>
        <FhirClientContext.Provider value={client}>
          <form onSubmit={onSubmit}>
            <CodingInput label="Coding" path="T.coding" value={undefined} valueSet="http://vs" onChange={() => {}} />
            <CodeInput label="Code" path="T.code" value={undefined} valueSet="http://vs" onChange={() => {}} />
            <ReferenceInput label="Ref" path="T.ref" value={undefined} targetProfiles={[]} onChange={() => {}} />
            <button type="submit">Save</button>
          </form>
        </FhirClientContext.Provider>
      </QueryClientProvider>,
    );
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByRole('combobox', { name: 'Coding' }), 'abc{Enter}');
    await user.type(screen.getByRole('combobox', { name: 'Code' }), 'abc{Enter}');
    await user.type(screen.getByRole('combobox', { name: 'Ref' }), 'abc{Enter}');
    expect(onSubmit).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('Reference: searches the chosen type by its field with _count 10', async () => {
    const searchResources = vi.fn(async (type: string) =>
      type === 'Patient' ? [{ resourceType: 'Patient', id: 'p1', name: [{ given: ['Eve'], family: 'Doe' }] }] : [],
    );
    const client = { searchResources } as unknown as FhirClient;
    const { last, user } = renderInput(
      ReferenceInput,
      undefined,
      {
        targetProfiles: [
          'http://hl7.org/fhir/StructureDefinition/Patient',
          'http://hl7.org/fhir/StructureDefinition/Device',
        ],
      },
      client,
    );
    await user.type(screen.getByRole('combobox', { name: 'Field' }), 'Eve');
    await waitFor(() =>
      expect(searchResources).toHaveBeenCalledWith('Patient', { name: 'Eve', _count: '10' }, expect.anything()),
    );
    await user.click(await screen.findByRole('option', { name: /Eve Doe/ }));
    expect(last()).toEqual({ reference: 'Patient/p1', display: 'Eve Doe' });
    // The chosen value reads as the display alone, not 'Eve Doe (Patient/p1)'.
    expect(screen.getByRole('combobox', { name: 'Field' })).toHaveValue('Eve Doe');
    await waitFor(() =>
      expect(searchResources).toHaveBeenCalledWith('Patient', { name: 'Eve', _count: '10' }, expect.anything()),
    );
    await choose(user, 'Field type', 'Device');
    await user.clear(screen.getByRole('combobox', { name: 'Field' }));
    await user.type(screen.getByRole('combobox', { name: 'Field' }), 'pump');
    await waitFor(() =>
      expect(searchResources).toHaveBeenCalledWith(
        'Device',
        { 'device-name': 'pump', _count: '10' },
        expect.anything(),
      ),
    );
    expect(await screen.findByText('Nothing found')).toBeInTheDocument();
  });

  it('Reference to any type: opens on the type the element means (Task.for → Patient) and searches it', async () => {
    const searchResources = vi.fn(async () => [{ resourceType: 'Patient', id: 'p2', name: [{ family: 'Lee' }] }]);
    const client = { searchResources } as unknown as FhirClient;
    renderInput(
      ReferenceInput,
      undefined,
      { path: 'Task.for', targetProfiles: ['http://hl7.org/fhir/StructureDefinition/Resource'] },
      client,
    );
    const user = userEvent.setup({ delay: null });
    expect(screen.getByRole('combobox', { name: 'Field type' })).toHaveTextContent('Patient');
    await user.type(screen.getByRole('combobox', { name: 'Field' }), 'Lee');
    await waitFor(() =>
      expect(searchResources).toHaveBeenCalledWith('Patient', { name: 'Lee', _count: '10' }, expect.anything()),
    );
    expect(searchResources).not.toHaveBeenCalledWith('AccessPolicy', expect.anything(), expect.anything());
    // The likely types come first, then every other type (AccessPolicy is still reachable).
    await user.click(screen.getByRole('combobox', { name: 'Field type' }));
    const listbox = await screen.findByRole('listbox');
    const options = within(listbox)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options.slice(0, 3)).toEqual(['Patient', 'Group', 'RelatedPerson']);
    expect(options).toContain('AccessPolicy');
  });
});
