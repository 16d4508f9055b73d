import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { FhirClient } from '../../../data-provider/client';
import { ShellClientContext } from '../../../src/shell';
import { PatientPortalLayout } from './PatientPortalLayout';

const patient = { resourceType: 'Patient' as const, id: 'pat-1', name: [{ given: ['Wendy'], family: 'Littel' }] };

/** The calls the portal's header makes of the client: who is signed in. */
const client = {
  getActiveLogin: () => ({ accessToken: 't', refreshToken: 'r', project: { reference: 'Project/p' }, profile: {} }),
  getProfile: () => patient,
  getProject: () => ({ resourceType: 'Project', id: 'p' }),
  getProjectMembership: () => undefined,
  getUserConfiguration: () => undefined,
  getLogins: () => [],
  addEventListener: () => undefined,
  removeEventListener: () => undefined,
} as unknown as FhirClient;

function renderAt(path: string) {
  return render(
    <ShellClientContext.Provider value={client}>
      <MemoryRouter initialEntries={[path]}>
        <PatientPortalLayout patient={{ reference: 'Patient/pat-1' }}>
          <p>Account settings page</p>
        </PatientPortalLayout>
      </MemoryRouter>
    </ShellClientContext.Provider>,
  );
}

describe('PatientPortalLayout', () => {
  it('lets a patient reach their password and security settings from the header', () => {
    renderAt('/security');
    const nav = screen.getByRole('navigation', { name: 'Patient portal' });
    const link = screen.getByRole('link', { name: 'Password and security' });
    expect(nav).toContainElement(link);
    expect(link).toHaveAttribute('href', '/security');
    expect(link).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'My record' })).toHaveAttribute('href', '/Patient/pat-1');
    expect(screen.getByText('Account settings page')).toBeInTheDocument();
  });
});

describe('PatientPortalLayout: keyboard', () => {
  it('starts with "Skip to main content", which moves focus past the header to the page', async () => {
    const user = userEvent.setup();
    const { container } = renderAt('/security');
    // Tab from the top of the portal (the suite shares one document between files: whatever another
    // file left before it is not the portal's).
    container.tabIndex = -1;
    container.focus();
    await user.tab();
    expect(screen.getByRole('link', { name: 'Skip to main content' })).toHaveFocus();
    await user.keyboard('{Enter}');
    const main = screen.getByRole('main');
    expect(main).toHaveFocus();
    expect(main).toContainElement(screen.getByText('Account settings page'));
  });
});
