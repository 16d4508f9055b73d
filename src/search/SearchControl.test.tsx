import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { Appointment, Bundle, Patient } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { SchemaLoader } from '../../schema-engine';
import { recordedSource } from '../../schema-engine/test-support/recordedDefinitions';
import { setSchemaLoader } from '../resources/typeSchema';
import { FhirClientContext } from '../resources/useFhirClient';
import { SearchControl } from './SearchControl';
import { parseConsoleSearch, type ConsoleSearch } from './searchState';

function patients(count: number, offset = 0): Bundle<Patient> {
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    total: 45,
    entry: Array.from({ length: count }, (_, i) => ({
      resource: { resourceType: 'Patient', id: `p${offset + i}`, gender: 'female', meta: { versionId: '1' } },
    })),
  };
}

function setup(
  query: string,
  bundle: (query: string) => Bundle,
  props: Partial<Parameters<typeof SearchControl>[0]> = {},
  resourceType = 'Patient',
) {
  const search = vi.fn(async (_type: string, q: string) => bundle(q));
  const client = { search } as unknown as FhirClient;
  setSchemaLoader(client, new SchemaLoader(recordedSource()));
  const onChange = vi.fn();
  const onClick = vi.fn();
  const initial: ConsoleSearch = parseConsoleSearch(resourceType, new URLSearchParams(query));
  render(
    <QueryClientProvider client={new QueryClient()}>
      <FhirClientContext.Provider value={client}>
        <SearchControl search={initial} onChange={onChange} onClick={onClick} checkboxesEnabled {...props} />
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
  return { search, onChange, onClick, user: userEvent.setup({ delay: null }) };
}

describe('SearchControl', { timeout: 30_000 }, () => {
  it('shows active filters in words; removing one keeps the others and resets the offset', async () => {
    const { onChange, user } = setup('gender=female&birthdate=ge1980-01-01&_offset=20', () => patients(3));
    const filters = await screen.findByLabelText('Active filters');
    expect(filters).toHaveTextContent('gender equals female');
    expect(filters).toHaveTextContent('birthdate greater than or equals 1980-01-01');
    await user.click(screen.getByLabelText('Remove filter gender equals female'));
    const next = onChange.mock.calls[0][0].request;
    expect(next.filters).toEqual([{ code: 'birthdate', operator: 'ge', value: '1980-01-01' }]);
    expect(next.offset ?? 0).toBe(0);
  });

  it('names a filter’s reference once its name is known, and removes it by that name', async () => {
    const { search, onChange, user } = setup('general-practitioner=Practitioner/a1', (q) =>
      typeof q === 'string'
        ? patients(2)
        : {
            resourceType: 'Bundle',
            type: 'searchset',
            entry: [
              { resource: { resourceType: 'Practitioner', id: 'a1', name: [{ given: ['Alice'], family: 'Carter' }] } },
            ],
          },
    );
    const filters = await screen.findByLabelText('Active filters');
    await waitFor(() => expect(filters).toHaveTextContent('general-practitioner equals Alice Carter'));
    expect(search).toHaveBeenCalledWith('Practitioner', expect.objectContaining({ _id: 'a1' }), expect.anything());
    await user.click(screen.getByLabelText('Remove filter general-practitioner equals Alice Carter'));
    expect(onChange.mock.calls[0][0].request.filters ?? []).toEqual([]);
  });

  it('shows a status column as a badge coloured by the code (app-spec §4), the word kept', async () => {
    const appointment = (id: string, status: Appointment['status']) => ({
      resource: { resourceType: 'Appointment', id, status, participant: [{ status: 'accepted' }] } as Appointment,
    });
    setup(
      '_fields=status,description',
      () => ({
        resourceType: 'Bundle',
        type: 'searchset',
        entry: [appointment('a1', 'booked'), appointment('a2', 'noshow'), appointment('a3', 'fulfilled')],
      }),
      {},
      'Appointment',
    );
    const badge = async (word: string) => (await screen.findByText(word)).closest('.status-badge');
    expect(await badge('booked')).toHaveAttribute('data-status-color', 'blue');
    expect(await badge('noshow')).toHaveAttribute('data-status-color', 'red');
    expect(await badge('fulfilled')).toHaveAttribute('data-status-color', 'green');
  });

  it('shows the page, first-last of total, and moves pages by the page size', async () => {
    const { search, onChange, user } = setup('_count=20&_offset=20', (q) =>
      patients(20, q.includes('_offset=20') ? 20 : 0),
    );
    expect(await screen.findByText('21-40 of 45')).toBeInTheDocument();
    expect(search.mock.calls[0][1]).toContain('_count=20');
    expect(search.mock.calls[0][1]).not.toContain('_elements');
    expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(21);
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onChange.mock.calls[0][0].request.offset).toBe(40);
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(onChange.mock.calls[1][0].request.offset).toBe(0);
  });

  it('says No results for an empty search', async () => {
    setup('', () => ({ resourceType: 'Bundle', type: 'searchset', total: 0, entry: [] }));
    expect(await screen.findByText('No results')).toBeInTheDocument();
  });

  it('opens a row on click, and in a new tab on ctrl-, meta- and middle-click', async () => {
    const { onClick, user } = setup('', () => patients(2));
    const cell = await screen.findByText('p0');
    await user.click(cell);
    expect(onClick).toHaveBeenLastCalledWith(expect.objectContaining({ id: 'p0' }), false);
    await user.keyboard('{Control>}');
    await user.click(cell);
    await user.keyboard('{/Control}');
    expect(onClick).toHaveBeenLastCalledWith(expect.objectContaining({ id: 'p0' }), true);
    await user.pointer({ keys: '[MouseMiddle]', target: cell });
    expect(onClick).toHaveBeenLastCalledWith(expect.objectContaining({ id: 'p0' }), true);
  });

  it('reaches each row from the keyboard: Tab after the column headers, Enter or Space opens it', async () => {
    const { onClick, user } = setup('', () => patients(2), { hideToolbar: true, checkboxesEnabled: false });
    await screen.findByText('p0');
    const [, first, second] = within(screen.getByRole('table')).getAllByRole('row');
    await user.tab();
    expect(screen.getByRole('button', { name: 'ID' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Last Updated' })).toHaveFocus();
    await user.tab();
    expect(first).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onClick).toHaveBeenLastCalledWith(expect.objectContaining({ id: 'p0' }), false);
    await user.tab();
    expect(second).toHaveFocus();
    await user.keyboard(' ');
    expect(onClick).toHaveBeenLastCalledWith(expect.objectContaining({ id: 'p1' }), false);
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(onClick).toHaveBeenLastCalledWith(expect.objectContaining({ id: 'p1' }), true);
    expect(onClick).toHaveBeenCalledTimes(3);
  });

  it("Space on a row's checkbox selects the row without opening it", async () => {
    const { onClick, user } = setup('', () => patients(1), { onDelete: vi.fn() });
    await screen.findByText('p0');
    const checkbox = screen.getByRole('checkbox', { name: 'Select Patient/p0' });
    checkbox.focus();
    await user.keyboard(' ');
    expect(checkbox).toBeChecked();
    expect(onClick).not.toHaveBeenCalled();
  });

  it('selects all rows and hands the ids to Delete...', async () => {
    const onDelete = vi.fn();
    const { user } = setup('', () => patients(3), { onDelete });
    await screen.findByText('p0');
    expect(screen.getByRole('button', { name: 'Delete...' })).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    await user.click(screen.getByRole('button', { name: 'Delete...' }));
    expect(onDelete).toHaveBeenCalledWith(['p0', 'p1', 'p2']);
  });

  it('hides the toolbar when asked; New..., Export... and Bulk... only with their handlers', async () => {
    setup('', () => patients(1), { onNew: vi.fn() });
    await screen.findByText('p0');
    expect(screen.getByRole('button', { name: 'New...' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Export...' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Bulk...' })).not.toBeInTheDocument();
  });

  it("a column menu sorts by the column's search parameter, from the first page", async () => {
    const { onChange, user } = setup('_fields=birthDate&_count=20&_offset=20', () => patients(1));
    await screen.findAllByRole('row');
    await user.click(screen.getByRole('button', { name: 'Birth Date' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sort Newest to Oldest' }));
    await waitFor(() => expect(onChange).toHaveBeenCalled());
    expect(onChange.mock.calls[0][0].request.sortRules).toEqual([{ code: 'birthdate', descending: true }]);
    expect(onChange.mock.calls[0][0].request.offset).toBe(0);
  });

  it('fills a column over an extension search parameter (US Core race) once FHIRPath has loaded', async () => {
    const race = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-race';
    setup('_fields=_id,race,gender', () => ({
      resourceType: 'Bundle',
      type: 'searchset',
      total: 1,
      entry: [
        {
          resource: {
            resourceType: 'Patient',
            id: 'r1',
            gender: 'female',
            extension: [
              {
                url: race,
                extension: [
                  {
                    url: 'ombCategory',
                    valueCoding: { system: 'urn:oid:2.16.840.1.113883.6.238', code: '2106-3', display: 'White' },
                  },
                  { url: 'text', valueString: 'White' },
                ],
              },
            ],
          } as Patient,
        },
      ],
    }));
    const row = (await screen.findByText('r1')).closest('tr')!;
    await waitFor(() => expect(within(row).getByText('2106-3')).toBeInTheDocument());
    expect(within(row).getByText('female')).toBeInTheDocument();
  });
});
