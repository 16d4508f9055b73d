import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { StructureDefinition } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { SchemaLoader } from '../../schema-engine';
import { recordedDefinition, recordedSource } from '../../schema-engine/test-support/recordedDefinitions';
import { ResourceForm } from './ResourceForm';
import { setSchemaLoader } from './typeSchema';
import { FhirClientContext } from './useFhirClient';

const client = {} as FhirClient;
const loader = new SchemaLoader(recordedSource());
setSchemaLoader(client, loader);

const usCorePatient = {
  ...recordedDefinition('http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient'),
  id: 'us-core-patient',
} as StructureDefinition;

async function renderEditor() {
  const schema = await loader.loadType('StructureDefinition');
  const onSubmit = vi.fn();
  const { container } = render(
    <QueryClientProvider client={new QueryClient()}>
      <FhirClientContext.Provider value={client}>
        <ResourceForm schema={schema} defaultValue={usCorePatient} onSubmit={onSubmit} />
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
  const snapshot = await screen.findByRole('group', { name: 'Snapshot' });
  return { container, snapshot, onSubmit, user: userEvent.setup({ delay: null }) };
}

describe('the editor of a big StructureDefinition (US Core Patient)', { timeout: 60_000 }, () => {
  it("lists the snapshot's elements collapsed, a page at a time, instead of thousands of inputs", async () => {
    const { container, snapshot } = await renderEditor();
    const elements = usCorePatient.snapshot?.element ?? [];
    expect(elements.length).toBeGreaterThan(25);
    // Nested datatypes load their definitions first (a spinner each): count once all have arrived.
    await waitFor(() => expect(screen.queryAllByLabelText('Loading...')).toHaveLength(0), { timeout: 30_000 });
    // Before: every ElementDefinition mounted its ~100 inputs (5,176 in the browser).
    expect(container.querySelectorAll('input, textarea').length).toBeLessThan(300);
    const list = within(snapshot).getByRole('group', { name: 'Element' });
    const first = within(list).getByRole('button', { name: /^Element 1 Patient$/ });
    expect(first).toHaveAttribute('aria-expanded', 'false');
    expect(within(list).getAllByRole('listitem')).toHaveLength(25);
    expect(within(list).getByRole('button', { name: `Show 25 more (25 of ${elements.length} shown)` })).toBeEnabled();
  });

  it('opens one element to edit it and saves only that change; an untouched save is loss-free', async () => {
    const { snapshot, onSubmit, user } = await renderEditor();
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(onSubmit).toHaveBeenLastCalledWith(usCorePatient);

    const list = within(snapshot).getByRole('group', { name: 'Element' });
    const toggle = within(list).getByRole('button', { name: /^Element 3 Patient\.meta$/ });
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const short = await within(list).findByRole('textbox', { name: 'Short' });
    expect(short).toHaveValue(usCorePatient.snapshot?.element[2].short ?? '');
    await user.clear(short);
    await user.type(short, 'Metadata, edited');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    const saved = onSubmit.mock.lastCall?.[0] as StructureDefinition;
    expect(saved.snapshot?.element[2].short).toBe('Metadata, edited');
    expect({ ...saved.snapshot?.element[2], short: undefined }).toEqual({
      ...usCorePatient.snapshot?.element[2],
      short: undefined,
    });
    expect(saved.snapshot?.element.filter((_, i) => i !== 2)).toEqual(
      usCorePatient.snapshot?.element.filter((_, i) => i !== 2),
    );
  });

  it('lists the next page on demand and removes an entry (the ones after it move up)', async () => {
    const { snapshot, onSubmit, user } = await renderEditor();
    const list = within(snapshot).getByRole('group', { name: 'Element' });
    const total = usCorePatient.snapshot?.element.length ?? 0;
    await user.click(within(list).getByRole('button', { name: /^Show 25 more/ }));
    expect(within(list).getAllByRole('listitem').length).toBe(Math.min(50, total));
    expect(within(list).queryByRole('button', { name: 'Remove Element 2' })).toBeNull();
    await user.click(within(list).getByRole('button', { name: /^Element 2 Patient\.id$/ }));
    await user.click(within(list).getByRole('button', { name: 'Remove Element 2' }));
    await user.click(screen.getByRole('button', { name: 'Update' }));
    const saved = onSubmit.mock.lastCall?.[0] as StructureDefinition;
    expect(saved.snapshot?.element).toHaveLength(total - 1);
    expect(saved.snapshot?.element[1]).toEqual(usCorePatient.snapshot?.element[2]);
  });
});
