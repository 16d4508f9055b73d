import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { NotificationContextProvider, UndoableMutationsContextProvider } from 'react-admin';
import { describe, expect, it, vi } from 'vitest';
import type { Patient, Practitioner, Resource } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { OperationOutcomeError } from '../../data-provider/outcomes';
import { SchemaLoader } from '../../schema-engine';
import { recordedSource } from '../../schema-engine/test-support/recordedDefinitions';
import { NotificationBridge } from '../shell/NotificationBridge';
import { ToastProvider } from '../shell/toasts';
import { ResourceEditor } from './ResourceEditor';
import { setSchemaLoader } from './typeSchema';
import { FhirClientContext } from './useFhirClient';

const loader = new SchemaLoader(recordedSource());
const usCorePatient = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient';

function fakeClient(updateResource: (resource: Resource) => Promise<Resource>): FhirClient {
  const client = {
    getAccessPolicy: () => undefined,
    isSuperAdmin: () => true,
    // No profiles to pick, no value set expansions: the editor's own behaviour is under test.
    searchResources: async () => [],
    valueSetExpand: async () => ({ resourceType: 'ValueSet', status: 'active', expansion: { contains: [] } }),
    updateResource: vi.fn(updateResource),
    createResource: vi.fn(updateResource),
  } as unknown as FhirClient;
  setSchemaLoader(client, loader);
  return client;
}

/** The texts of the red toasts on screen (the form's own alert repeats them, so the toasts are read alone). */
function errorToasts(): string[] {
  return [...document.querySelectorAll('.notistack-MuiContent-error')].map((toast) => toast.textContent ?? '');
}

function renderEditor(client: FhirClient, resource: Resource) {
  render(
    // The app's toast area, react-admin's notifications bridged into it as in App.tsx.
    <ToastProvider>
      <NotificationContextProvider>
        <UndoableMutationsContextProvider>
          <NotificationBridge />
          <QueryClientProvider client={new QueryClient()}>
            <FhirClientContext.Provider value={client}>
              <MemoryRouter>
                <ResourceEditor resource={resource} />
              </MemoryRouter>
            </FhirClientContext.Provider>
          </QueryClientProvider>
        </UndoableMutationsContextProvider>
      </NotificationContextProvider>
    </ToastProvider>,
  );
  return userEvent.setup({ delay: null });
}

describe('ResourceEditor', { timeout: 30_000 }, () => {
  it("closes the persistent error toasts of this form's failed saves once a save succeeds", async () => {
    const stored: Practitioner = { resourceType: 'Practitioner', id: 'pr1', name: [{ family: 'Smith' }] };
    let attempts = 0;
    const client = fakeClient(async (resource) => {
      attempts++;
      if (attempts < 3) {
        throw new OperationOutcomeError({
          resourceType: 'OperationOutcome',
          issue: [{ severity: 'error', code: 'invalid', details: { text: `Refused ${attempts}` } }],
        });
      }
      return { ...resource, meta: { versionId: '2' } };
    });
    const user = renderEditor(client, stored);
    // A change to save (an Update that changes nothing sends nothing).
    await user.type(await screen.findByLabelText('Family'), 'son');
    const update = await screen.findByRole('button', { name: 'Update' });
    await user.click(update);
    await waitFor(() => expect(errorToasts()).toEqual([expect.stringContaining('Refused 1')]));
    await user.click(screen.getByRole('button', { name: 'Update' }));
    // Each failure has its toast (a shared key would swallow the second), both kept until closed.
    await waitFor(() => expect(errorToasts()).toHaveLength(2));
    expect(errorToasts().join()).toContain('Refused 2');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Updated')).toBeVisible();
    await waitFor(() => expect(errorToasts()).toEqual([]));
  });

  it('refuses a future birth date in the Edit tab under US Core, under the field, sending nothing', async () => {
    const stored: Patient = {
      resourceType: 'Patient',
      id: 'p1',
      meta: { versionId: '1', profile: [usCorePatient] },
      identifier: [{ system: 'urn:mrn', value: '1' }],
      name: [{ given: ['Ann'], family: 'Lee' }],
      gender: 'female',
      birthDate: '1980-02-03',
    };
    const client = fakeClient(async (resource) => resource);
    const user = renderEditor(client, stored);
    const birthDate = await screen.findByLabelText('Birth Date');
    await user.clear(birthDate);
    await user.type(birthDate, '2040');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() =>
      expect(document.getElementById(`${birthDate.id}-helper-text`)).toHaveTextContent(
        'Birth date cannot be in the future',
      ),
    );
    expect(client.updateResource).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Birth Date')).toHaveValue('2040');
    const form = document.querySelector('form') as HTMLFormElement;
    expect(within(form).getByRole('alert')).toHaveTextContent('Birth date cannot be in the future (Patient.birthDate)');
    expect(errorToasts()).toEqual([expect.stringContaining('Birth date cannot be in the future')]);
  });
});
