import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { StructureDefinition } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { ProfilePicker } from './ProfilePicker';
import { FhirClientContext } from './useFhirClient';

const profile = (n: number): StructureDefinition =>
  ({
    resourceType: 'StructureDefinition',
    url: `https://example.org/sd/obs-${n}`,
    name: `ObservationProfile${n}`,
    title: `Observation profile ${n}`,
  }) as StructureDefinition;

const all = Array.from({ length: 18 }, (_, i) => profile(i + 1));

function setup(value: string | undefined, profiles = all) {
  const searchResources = vi.fn(async (_type: string, query: Record<string, string>) => {
    if (query.url) return profiles.filter((p) => p.url === query.url);
    const title = query['title:contains']?.toLowerCase();
    const name = query['name:contains']?.toLowerCase();
    const found = profiles.filter(
      (p) =>
        (!title && !name) ||
        (title && p.title?.toLowerCase().includes(title)) ||
        (name && p.name?.toLowerCase().includes(name)),
    );
    return found.slice(0, Number(query._count));
  });
  const onChange = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <FhirClientContext.Provider value={{ searchResources } as unknown as FhirClient}>
        <ProfilePicker resourceType="Observation" value={value} onChange={onChange} />
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
  return { searchResources, onChange, user: userEvent.setup() };
}

describe('ProfilePicker', { timeout: 30_000 }, () => {
  it('shows a chosen profile beyond the first 10 by its title', async () => {
    setup('https://example.org/sd/obs-17');
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Profiles' })).toHaveValue('Observation profile 17'),
    );
  });

  it('lists at most 10, searches the server by title and name as the user types, and hands back the url', async () => {
    const { searchResources, onChange, user } = setup(undefined);
    const input = await screen.findByRole('combobox', { name: 'Profiles' });
    expect(input).toHaveAttribute('placeholder', 'Observation (base definition)');
    await user.click(input);
    expect(await screen.findAllByRole('option')).toHaveLength(10);
    await user.type(input, 'profile 18');
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(1));
    const queries = searchResources.mock.calls.map((call) => call[1]);
    expect(queries).toContainEqual(expect.objectContaining({ 'title:contains': 'profile 18', _count: '10' }));
    expect(queries).toContainEqual(expect.objectContaining({ 'name:contains': 'profile18' }));
    // Each option names its title and, below it, its url (titles can repeat).
    const option = screen.getByRole('option', { name: /^Observation profile 18/ });
    expect(option).toHaveTextContent('https://example.org/sd/obs-18');
    await user.click(option);
    expect(onChange).toHaveBeenLastCalledWith('https://example.org/sd/obs-18');
  });

  it('offers the base definition by clearing, and says Nothing found', async () => {
    const { onChange, user } = setup('https://example.org/sd/obs-2');
    const input = await screen.findByRole('combobox', { name: 'Profiles' });
    await waitFor(() => expect(input).toHaveValue('Observation profile 2'));
    await user.clear(input);
    await user.type(input, 'zzz');
    expect(await screen.findByText('Nothing found')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(onChange).toHaveBeenLastCalledWith(undefined);
  });

  it('is not shown for a type without profiles', async () => {
    const { searchResources } = setup(undefined, []);
    await waitFor(() => expect(searchResources).toHaveBeenCalled());
    await waitFor(() => expect(screen.queryByRole('combobox', { name: 'Profiles' })).not.toBeInTheDocument());
  });
});
