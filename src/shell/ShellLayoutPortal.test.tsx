import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { Patient } from '@medplum/fhirtypes';
import type { FhirClient, LoginState } from '../../data-provider/client';
import { ShellLayout } from './ShellLayout';
import { ShellClientContext } from './shellClient';
import { ShellSlotsContext, type ShellSlots } from './shellSlots';
import { ToastProvider } from './toasts';

const wendy: Patient = { resourceType: 'Patient', id: 'wendy', name: [{ given: ['Wendy'], family: 'Littel' }] };
const login: LoginState = { accessToken: 'token', profile: { reference: 'Patient/wendy' } };

// Only what the shell reads while rendering a signed-in patient's frame.
const client = {
  getActiveLogin: () => login,
  getProfile: () => wendy,
  getProject: () => undefined,
  getProjectMembership: () => undefined,
  getUserConfiguration: () => undefined,
  getLogins: () => [login],
  addEventListener: () => undefined,
  removeEventListener: () => undefined,
} as unknown as FhirClient;

// The portal's layout stands in for custom-screens/chat/portal: its frame around the page.
const slots: ShellSlots = {
  PatientLayout: ({ children }: { children?: ReactNode }) => <div data-testid="portal">{children}</div>,
};

function Page() {
  return <p>Screen at {useLocation().pathname}</p>;
}

function renderPortal(path: string) {
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <ShellLayout>
            <Page />
          </ShellLayout>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <ShellClientContext.Provider value={client}>
      <ShellSlotsContext.Provider value={slots}>
        <ToastProvider>
          <RouterProvider router={router} />
        </ToastProvider>
      </ShellSlotsContext.Provider>
    </ShellClientContext.Provider>,
  );
  return router;
}

describe('ShellLayout for a patient signed in to the portal', () => {
  it.each(['/tasks', '/onboarding', '/Observation', '/Patient', '/Patient/someone-else'])(
    'shows the care team page, not the screen, at %s',
    (path) => {
      renderPortal(path);
      expect(screen.getByTestId('portal')).toBeInTheDocument();
      expect(screen.getByRole('heading', { name: 'This page is for the care team.' })).toBeInTheDocument();
      expect(screen.queryByText(/^Screen at/)).not.toBeInTheDocument();
    },
  );

  it.each(['/Patient/wendy', '/Patient/wendy/ServiceRequest/sr1', '/security', '/Encounter/e1'])(
    'shows her screen at %s',
    (path) => {
      renderPortal(path);
      expect(screen.getByText(`Screen at ${path}`)).toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: 'This page is for the care team.' })).not.toBeInTheDocument();
    },
  );

  it('leads her back to her messages', async () => {
    const user = userEvent.setup();
    const router = renderPortal('/tasks');
    await user.click(screen.getByRole('link', { name: 'Back to your messages' }));
    expect(router.state.location.pathname).toBe('/');
    expect(screen.getByText('Screen at /')).toBeInTheDocument();
  });
});
