import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FhirClient } from '../../data-provider/client';
import { formatDateTime } from '../../data-provider/formatting';
import { ShellClientContext, ToastProvider } from '../../src/shell';
import { SessionsSection } from './SessionsSection';

// happy-dom evaluates media queries against its viewport, so MUI's real breakpoint query decides
// between the table and the stacked list here.
type HappyDomWindow = Window & { happyDOM: { setViewport(viewport: { width: number; height: number }): void } };
const happyDom = (window as unknown as HappyDomWindow).happyDOM;
const initialViewport = { width: window.innerWidth, height: window.innerHeight };

const encode = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '');
const token = `${encode({ alg: 'none' })}.${encode({ login_id: 'here' })}.signature`;
const userAgent =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const sessions = [
  { id: 'here', lastUpdated: '2025-03-04T10:15:00Z', authMethod: 'password', remoteAddress: '10.0.0.7', userAgent },
  { id: 'laptop', lastUpdated: '2025-03-01T08:00:00Z', authMethod: 'password', remoteAddress: '192.168.1.20' },
];

function renderSessions() {
  const client = {
    getBaseUrl: () => 'http://hearth.test/',
    getAccessToken: () => token,
    get: vi.fn(async () => ({ security: { mfaEnrolled: false, sessions } })),
    post: vi.fn(async () => ({})),
    signOut: vi.fn(async () => undefined),
  } as unknown as FhirClient;
  render(
    <ShellClientContext.Provider value={client}>
      <ToastProvider>
        <SessionsSection />
      </ToastProvider>
    </ShellClientContext.Provider>,
  );
  return client;
}

/** The labelled lines of a stacked item, as label → value. */
function fieldsOf(item: HTMLElement): Record<string, string | null | undefined> {
  return Object.fromEntries(
    within(item)
      .getAllByRole('term')
      .map((term) => [term.textContent, term.nextElementSibling?.textContent]),
  );
}

afterEach(() => {
  act(() => happyDom.setViewport(initialViewport));
});

describe('SessionsSection on a phone (390 px)', () => {
  it('lists each session as an item named by its time, with every column labelled and its Sign out', async () => {
    happyDom.setViewport({ width: 390, height: 844 });
    const client = renderSessions();
    const list = await screen.findByRole('list', { name: 'Active sessions' });
    expect(screen.queryByRole('table')).toBeNull();
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    const here = within(list).getByRole('listitem', {
      name: `Last active ${formatDateTime('2025-03-04T10:15:00Z')}`,
    });
    expect(within(here).getByText('This session')).toBeInTheDocument();
    expect(fieldsOf(here)).toEqual({ Method: 'password', Address: '10.0.0.7', Browser: userAgent });
    const laptop = within(list).getByRole('listitem', {
      name: `Last active ${formatDateTime('2025-03-01T08:00:00Z')}`,
    });
    expect(within(laptop).queryByText('This session')).toBeNull();
    // A missing value is said, not left as an empty line.
    expect(fieldsOf(laptop)).toEqual({ Method: 'password', Address: '192.168.1.20', Browser: '—' });

    fireEvent.click(within(laptop).getByRole('button', { name: 'Sign out' }));
    await waitFor(() =>
      expect(client.post).toHaveBeenCalledWith(
        new URL('http://hearth.test/auth/revoke'),
        { loginId: 'laptop' },
        'application/json',
      ),
    );
    expect(within(here).getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });
});

describe('SessionsSection on a wide screen (1280 px)', () => {
  it('keeps the table, one row per session', async () => {
    happyDom.setViewport({ width: 1280, height: 900 });
    renderSessions();
    const table = await screen.findByRole('table', { name: 'Active sessions' });
    expect(screen.queryByRole('list', { name: 'Active sessions' })).toBeNull();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Last active', 'Method', 'Address', 'Browser', 'Actions']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]).getByText('This session')).toBeInTheDocument();
    expect(within(rows[0]).getByRole('cell', { name: userAgent })).toBeInTheDocument();
    expect(within(rows[1]).getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });
});
