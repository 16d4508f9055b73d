import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { NotificationContextProvider } from 'react-admin';
import { describe, expect, it, vi } from 'vitest';
import type { Practitioner } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { ResourceJson } from './ResourceJson';
import { FhirClientContext } from './useFhirClient';

const practitioner: Practitioner = {
  resourceType: 'Practitioner',
  id: 'pr1',
  meta: { versionId: '3' },
  name: [{ family: 'Carter', given: ['Alice'] }],
};

function renderJsonTab() {
  const updateResource = vi.fn(async (resource: Practitioner) => resource);
  const client = {
    getAccessPolicy: () => undefined,
    isSuperAdmin: () => true,
    updateResource,
  } as unknown as FhirClient;
  const router = createMemoryRouter(
    [{ path: '/Practitioner/pr1/json', element: <ResourceJson resource={practitioner} /> }],
    { initialEntries: ['/Practitioner/pr1/json'] },
  );
  render(
    <NotificationContextProvider>
      <QueryClientProvider client={new QueryClient()}>
        <FhirClientContext.Provider value={client}>
          <RouterProvider router={router} />
        </FhirClientContext.Provider>
      </QueryClientProvider>
    </NotificationContextProvider>,
  );
  return { updateResource, user: userEvent.setup({ delay: null }) };
}

describe('ResourceJson: text that parses but is not one resource', () => {
  it.each([
    ['[]', 'The JSON is a list ([…]); it must be one resource, an object ({…}).'],
    ['null', 'The JSON is null; it must be one resource, an object ({…}).'],
    ['"Practitioner"', 'The JSON is a string; it must be one resource, an object ({…}).'],
  ])('%s is refused with a message, nothing is sent and the text stays', async (typed, message) => {
    const { updateResource, user } = renderJsonTab();
    const json = screen.getByLabelText('JSON');
    fireEvent.change(json, { target: { value: typed } });
    await user.click(screen.getByRole('button', { name: 'Save JSON' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(updateResource).not.toHaveBeenCalled();
    expect(json).toHaveValue(typed);
  });
});
