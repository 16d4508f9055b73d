import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccessPolicy, Practitioner } from '@medplum/fhirtypes';
import type { FhirClient, LoginState } from '../../data-provider/client';
import { ShellLayout } from './ShellLayout';
import { NAVBAR_OPEN_STORAGE_KEY } from './navbarState';
import { ShellClientContext } from './shellClient';
import { ToastProvider } from './toasts';

// happy-dom evaluates media queries against its viewport and fires their change events on resize,
// so the shell's real `theme.breakpoints.down('md')` query is what decides the layout here.
type HappyDomWindow = Window & { happyDOM: { setViewport(viewport: { width: number; height: number }): void } };
const happyDom = (window as unknown as HappyDomWindow).happyDOM;
const initialViewport = { width: window.innerWidth, height: window.innerHeight };
const phone = { width: 390, height: 844 };
const desktop = { width: 1280, height: 900 };

const alice: Practitioner = {
  resourceType: 'Practitioner',
  id: 'alice',
  name: [{ given: ['Alice'], family: 'Smith' }],
};
const login: LoginState = { accessToken: 'token', profile: { reference: 'Practitioner/alice' } };
// Without Subscription in the policy the header's counts do not open a websocket.
const policy: AccessPolicy = { resourceType: 'AccessPolicy', resource: [{ resourceType: 'Task' }] };

// Only what the shell reads while rendering a signed-in staff user's frame.
const client = {
  getActiveLogin: () => login,
  getProfile: () => alice,
  getProject: () => undefined,
  getProjectMembership: () => undefined,
  getUserConfiguration: () => undefined,
  getLogins: () => [login],
  addEventListener: () => undefined,
  removeEventListener: () => undefined,
  search: async () => ({ resourceType: 'Bundle', type: 'searchset', total: 0 }),
  getAccessPolicy: () => policy,
  isSuperAdmin: () => false,
  isProjectAdmin: () => false,
} as unknown as FhirClient;

function Page() {
  return <p>Page at {useLocation().pathname}</p>;
}

function renderShell(path = '/Patient') {
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
  const view = render(
    <ShellClientContext.Provider value={client}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </ShellClientContext.Provider>,
  );
  return { router, ...view };
}

const navigation = () => screen.queryByRole('navigation', { name: 'Main navigation' });
// While the drawer is open MUI hides the rest of the page, header included, from assistive
// technology (the drawer is modal); `hidden` reaches the button behind it.
const menuButton = ({ hidden = false } = {}) =>
  screen.getByRole('button', { name: /^Hearth EMR: (show|hide) navigation$/, hidden });

async function openDrawer(user: ReturnType<typeof userEvent.setup>) {
  await user.click(menuButton());
  await screen.findByRole('navigation', { name: 'Main navigation' });
}

async function expectDrawerClosed() {
  await waitFor(() => expect(navigation()).not.toBeInTheDocument());
  expect(menuButton()).toHaveAttribute('aria-expanded', 'false');
  expect(menuButton()).toHaveFocus();
}

afterEach(() => {
  act(() => happyDom.setViewport(initialViewport));
  window.localStorage.removeItem(NAVBAR_OPEN_STORAGE_KEY);
});

describe('ShellLayout on a phone (390 px)', () => {
  beforeEach(() => {
    happyDom.setViewport(phone);
    // What a desktop session leaves behind: it must not open the drawer on the phone.
    window.localStorage.setItem(NAVBAR_OPEN_STORAGE_KEY, 'true');
  });

  it('loads with the navigation closed and the page using the whole width', () => {
    renderShell('/Patient/p1');
    expect(screen.getByText('Page at /Patient/p1')).toBeInTheDocument();
    expect(navigation()).not.toBeInTheDocument();
    expect(menuButton()).toHaveAccessibleName('Hearth EMR: show navigation');
    expect(menuButton()).toHaveAttribute('aria-expanded', 'false');
    expect(menuButton()).toHaveAttribute('aria-controls', 'shell-navbar');
  });

  it('the menu button opens an overlay drawer; choosing an item goes there, closes it and refocuses the button', async () => {
    const user = userEvent.setup();
    renderShell();
    await openDrawer(user);
    expect(menuButton({ hidden: true })).toHaveAttribute('aria-expanded', 'true');
    // The controlled element is a named modal over the page (with a backdrop) holding the landmark.
    const drawer = screen.getByRole('dialog', { name: 'Navigation menu' });
    expect(drawer).toHaveAttribute('id', 'shell-navbar');
    expect(drawer).toContainElement(navigation());
    expect(document.querySelector('.MuiBackdrop-root')).toBeInTheDocument();

    await user.click(within(navigation()!).getByRole('link', { name: 'New Patient' }));
    expect(screen.getByText('Page at /onboarding')).toBeInTheDocument();
    await expectDrawerClosed();
    expect(window.localStorage.getItem(NAVBAR_OPEN_STORAGE_KEY)).toBe('true');
  });

  it('Escape closes the drawer and gives focus back to the menu button', async () => {
    const user = userEvent.setup();
    renderShell();
    await openDrawer(user);
    await user.keyboard('{Escape}');
    await expectDrawerClosed();
    expect(screen.getByText('Page at /Patient')).toBeInTheDocument();
  });

  it('a click on the backdrop closes the drawer', async () => {
    const user = userEvent.setup();
    renderShell();
    await openDrawer(user);
    await user.click(document.querySelector('.MuiBackdrop-root')!);
    await expectDrawerClosed();
  });

  it('any navigation closes the drawer, and coming back to that page does not reopen it', async () => {
    const user = userEvent.setup();
    const { router } = renderShell();
    await openDrawer(user);
    await act(() => router.navigate('/Task'));
    expect(screen.getByText('Page at /Task')).toBeInTheDocument();
    await expectDrawerClosed();
    await act(() => router.navigate(-1));
    expect(screen.getByText('Page at /Patient')).toBeInTheDocument();
    expect(navigation()).not.toBeInTheDocument();
  });
});

describe('ShellLayout on a wide window (1280 px)', () => {
  beforeEach(() => happyDom.setViewport(desktop));

  it('keeps the remembered column beside the page: open by default, open after choosing an item', async () => {
    const user = userEvent.setup();
    renderShell();
    expect(navigation()).toBeInTheDocument();
    expect(menuButton()).toHaveAccessibleName('Hearth EMR: hide navigation');
    expect(menuButton()).toHaveAttribute('aria-expanded', 'true');
    expect(document.getElementById('shell-navbar')).toContainElement(navigation());
    expect(document.querySelector('.MuiBackdrop-root')).not.toBeInTheDocument();

    await user.click(within(navigation()!).getByRole('link', { name: 'New Patient' }));
    expect(screen.getByText('Page at /onboarding')).toBeInTheDocument();
    expect(navigation()).toBeInTheDocument();
  });

  it('the menu button hides the column and the choice survives a new visit', async () => {
    const user = userEvent.setup();
    const { unmount } = renderShell();
    await user.click(menuButton());
    expect(navigation()).not.toBeInTheDocument();
    expect(window.localStorage.getItem(NAVBAR_OPEN_STORAGE_KEY)).toBe('false');
    unmount();

    renderShell();
    expect(navigation()).not.toBeInTheDocument();
    expect(menuButton()).toHaveAttribute('aria-expanded', 'false');
  });
});

describe('ShellLayout: skip to main content', () => {
  beforeEach(() => happyDom.setViewport(desktop));

  it('is the first stop of the Tab key and moves focus past the header and navigation to the page', async () => {
    const user = userEvent.setup();
    renderShell();
    await user.tab();
    const skip = screen.getByRole('link', { name: 'Skip to main content' });
    expect(skip).toHaveFocus();
    await user.keyboard('{Enter}');
    const main = screen.getByRole('main');
    expect(main).toHaveFocus();
    expect(main).toContainElement(screen.getByText('Page at /Patient'));
  });
});

describe('ShellLayout at the md breakpoint', () => {
  it.each([
    { width: 899, layout: 'a closed overlay drawer', shown: false },
    { width: 900, layout: 'the open column', shown: true },
  ])('$width px loads with $layout', ({ width, shown }) => {
    happyDom.setViewport({ width, height: 800 });
    renderShell();
    expect(navigation() !== null).toBe(shown);
  });
});
