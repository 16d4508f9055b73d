import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Bundle, Project } from '@medplum/fhirtypes';
import { OperationOutcomeError } from '../../data-provider/outcomes';
import type { FhirClient } from '../../data-provider/client';
import { FhirClientContext } from '../../src/resources/useFhirClient';
import AdminProjectPage from './AdminProjectPage';

const members: Bundle = {
  resourceType: 'Bundle',
  type: 'searchset',
  entry: [
    {
      resource: {
        resourceType: 'ProjectMembership',
        id: 'm1',
        project: { reference: 'Project/demo' },
        user: { reference: 'User/u1' },
        profile: { reference: 'Practitioner/p1', display: 'Ben Front' },
        accessPolicy: { reference: 'AccessPolicy/a1' },
      },
    },
    {
      resource: {
        resourceType: 'ProjectMembership',
        id: 'm2',
        project: { reference: 'Project/demo' },
        user: { reference: 'User/u2' },
        profile: { reference: 'Practitioner/p2', display: 'Alice Admin' },
        admin: true,
      },
    },
    {
      resource: { resourceType: 'AccessPolicy', id: 'a1', name: 'Front desk' },
      search: { mode: 'include' },
    },
    {
      resource: {
        resourceType: 'User',
        id: 'u1',
        firstName: 'Ben',
        lastName: 'Front',
        email: 'ben@demo.hearth.example',
      },
      search: { mode: 'include' },
    },
    {
      resource: {
        resourceType: 'User',
        id: 'u2',
        firstName: 'Alice',
        lastName: 'Admin',
        email: 'alice@demo.hearth.example',
      },
      search: { mode: 'include' },
    },
  ],
};

const project: Project = {
  resourceType: 'Project',
  id: 'demo',
  name: 'Demo Clinic',
  secret: [{ name: 'LAB_KEY', valueString: 'lab-key-value' }],
};

function renderPage(admin: boolean, post: (url: URL, body: unknown) => Promise<unknown> = async () => project) {
  const search = vi.fn(async () => members);
  const client = {
    search,
    getProject: () => ({ resourceType: 'Project', id: 'demo', name: 'Demo Clinic' }),
    getBaseUrl: () => 'http://hearth.test/',
    isProjectAdmin: () => admin,
    isSuperAdmin: () => false,
    readResource: vi.fn(async () => project),
    searchResources: vi.fn(async (type: string) =>
      type === 'ClientApplication'
        ? [{ resourceType: 'ClientApplication', id: 'c1', name: 'Lab feed', secret: 's3cr3t' }]
        : type === 'Bot'
          ? [{ resourceType: 'Bot', id: 'b1', name: 'Reminder', code: 'exports.handler = async () => 1;' }]
          : [],
    ),
    get: vi.fn(async (url: URL) =>
      String(url).includes('/members/')
        ? members.entry?.find((entry) => String(url).endsWith(`/members/${entry.resource?.id}`))?.resource
        : { email: { delivery: 'outbox' } },
    ),
    post: vi.fn(post),
  } as unknown as FhirClient;
  render(
    <QueryClientProvider client={new QueryClient()}>
      <FhirClientContext.Provider value={client}>
        <MemoryRouter>
          <AdminProjectPage />
        </MemoryRouter>
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
  return { search, client };
}

describe('AdminProjectPage', () => {
  it('lists members by profile name with e-mail, access policy and admin flag, not User/<uuid>', async () => {
    const { search } = renderPage(true);
    expect(screen.getByText('Demo Clinic')).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Project members' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['Alice Admin', 'alice@demo.hearth.example', 'None (full access)', 'Admin', 'Edit'],
      ['Ben Front', 'ben@demo.hearth.example', 'Front desk', 'No', 'Edit'],
    ]);
    expect(table.textContent).not.toMatch(/User\//);
    expect(search).toHaveBeenCalledWith(
      'ProjectMembership',
      expect.stringContaining('_include=ProjectMembership:user'),
      {
        cache: 'no-cache',
      },
    );
  });

  it('tells a member who is not an admin, and loads nothing', () => {
    const { search } = renderPage(false);
    expect(screen.getByText("Only the project's admins can see its administration.")).toBeTruthy();
    expect(search).not.toHaveBeenCalled();
  });

  it('masks a client secret until the field is focused', async () => {
    renderPage(true);
    const secret = (await screen.findByLabelText('Secret of Lab feed')) as HTMLInputElement;
    expect(secret.type).toBe('password');
    expect(secret.value).toBe('s3cr3t');
    fireEvent.focus(secret);
    expect(secret.type).toBe('text');
    fireEvent.blur(secret);
    expect(secret.type).toBe('password');
  });

  it('shows a bad secret name under its field without saving, and keeps the rows when the server refuses', async () => {
    const refuse = vi.fn(async () => {
      throw new OperationOutcomeError(
        {
          resourceType: 'OperationOutcome',
          issue: [
            {
              severity: 'error',
              code: 'invalid',
              details: { text: 'Refused by server' },
              expression: ['secret[1].value[x]'],
            },
          ],
        },
        400,
      );
    });
    const { client } = renderPage(true, refuse);
    const value = (await screen.findByLabelText('Secret 1 value')) as HTMLInputElement;
    expect(value.type).toBe('password');
    expect(value.value).toBe('lab-key-value');
    fireEvent.click(screen.getByRole('button', { name: 'Add secret' }));
    fireEvent.change(screen.getByLabelText('Secret 2 name'), { target: { value: 'bad name' } });
    fireEvent.change(screen.getByLabelText('Secret 2 value'), { target: { value: 'v2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save secrets' }));
    expect(await screen.findByText('Name must be 1–100 letters, digits, _ . or -')).toBeTruthy();
    expect(client.post).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText('Secret 2 name'), { target: { value: 'SECOND' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save secrets' }));
    expect(await screen.findByText('Refused by server')).toBeTruthy();
    expect(refuse).toHaveBeenCalledWith(
      new URL('http://hearth.test/admin/projects/demo/secrets'),
      [
        { name: 'LAB_KEY', valueString: 'lab-key-value' },
        { name: 'SECOND', valueString: 'v2' },
      ],
      'application/json',
    );
    expect((screen.getByLabelText('Secret 2 name') as HTMLInputElement).value).toBe('SECOND');
    expect((screen.getByLabelText('Secret 2 value') as HTMLInputElement).value).toBe('v2');
  });

  it('will not let the only admin step down or be removed, and sends nothing', async () => {
    const { client } = renderPage(true);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Alice Admin' }));
    const dialog = await screen.findByRole('dialog', { name: 'Member: Alice Admin' });
    const admin = (await within(dialog).findByLabelText('Project admin')) as HTMLInputElement;
    expect(admin.checked).toBe(true);
    expect((within(dialog).getByRole('button', { name: 'Remove from project' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    fireEvent.click(admin);
    expect(within(dialog).getByText('The project must keep at least one active admin who can sign in')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(client.post).not.toHaveBeenCalled();
    // Ben is not an admin: he may be removed.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Ben Front' }));
    const other = await screen.findByRole('dialog', { name: 'Member: Ben Front' });
    await within(other).findByLabelText('Project admin');
    expect((within(other).getByRole('button', { name: 'Remove from project' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });

  it('keeps what was typed in a dialog closed by Escape, and discards it on Cancel', async () => {
    renderPage(true);
    const escape = (dialog: HTMLElement) => fireEvent.keyDown(dialog, { key: 'Escape' });

    // Invite
    fireEvent.click(await screen.findByRole('button', { name: 'Invite' }));
    let dialog = await screen.findByRole('dialog', { name: 'Invite a person' });
    fireEvent.change(within(dialog).getByLabelText(/First name/), { target: { value: 'Zed' } });
    fireEvent.change(within(dialog).getByLabelText(/Email/), { target: { value: 'zed@example.org' } });
    escape(dialog);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Invite a person' })).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Invite' }));
    dialog = await screen.findByRole('dialog', { name: 'Invite a person' });
    expect((within(dialog).getByLabelText(/First name/) as HTMLInputElement).value).toBe('Zed');
    expect((within(dialog).getByLabelText(/Email/) as HTMLInputElement).value).toBe('zed@example.org');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Invite a person' })).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Invite' }));
    dialog = await screen.findByRole('dialog', { name: 'Invite a person' });
    expect((within(dialog).getByLabelText(/First name/) as HTMLInputElement).value).toBe('');
    escape(dialog);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Invite a person' })).toBeNull());

    // New client
    fireEvent.click(screen.getByRole('button', { name: 'New client' }));
    dialog = await screen.findByRole('dialog', { name: 'New client application' });
    fireEvent.change(within(dialog).getByLabelText(/Redirect URI/), { target: { value: 'https://app.example/cb' } });
    escape(dialog);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New client application' })).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'New client' }));
    dialog = await screen.findByRole('dialog', { name: 'New client application' });
    expect((within(dialog).getByLabelText(/Redirect URI/) as HTMLInputElement).value).toBe('https://app.example/cb');
    escape(dialog);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New client application' })).toBeNull());

    // Deploy: the code being written, per bot
    fireEvent.click(await screen.findByRole('button', { name: 'Deploy Reminder' }));
    dialog = await screen.findByRole('dialog', { name: 'Deploy Reminder' });
    const code = 'exports.handler = async () => 2; // not deployed yet';
    fireEvent.change(within(dialog).getByLabelText(/Code/), { target: { value: code } });
    escape(dialog);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Deploy Reminder' })).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Deploy Reminder' }));
    dialog = await screen.findByRole('dialog', { name: 'Deploy Reminder' });
    expect((within(dialog).getByLabelText(/Code/) as HTMLTextAreaElement).value).toBe(code);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Deploy Reminder' })).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Deploy Reminder' }));
    dialog = await screen.findByRole('dialog', { name: 'Deploy Reminder' });
    expect((within(dialog).getByLabelText(/Code/) as HTMLTextAreaElement).value).toBe(
      'exports.handler = async () => 1;',
    );
    escape(dialog);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Deploy Reminder' })).toBeNull());

    // Run: the input typed stays for the next run of the same bot, closed by Escape or Close.
    fireEvent.click(screen.getByRole('button', { name: 'Run Reminder' }));
    dialog = await screen.findByRole('dialog', { name: 'Run Reminder' });
    const input = '{"patient": "Patient/123"}';
    fireEvent.change(within(dialog).getByLabelText(/^Input$/), { target: { value: input } });
    escape(dialog);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Run Reminder' })).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Run Reminder' }));
    dialog = await screen.findByRole('dialog', { name: 'Run Reminder' });
    expect((within(dialog).getByLabelText(/^Input$/) as HTMLTextAreaElement).value).toBe(input);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Run Reminder' })).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Run Reminder' }));
    dialog = await screen.findByRole('dialog', { name: 'Run Reminder' });
    expect((within(dialog).getByLabelText(/^Input$/) as HTMLTextAreaElement).value).toBe(input);
  });
});

// happy-dom evaluates media queries against its viewport, so MUI's real breakpoint query decides
// between the tables and the stacked lists here.
type HappyDomWindow = Window & { happyDOM: { setViewport(viewport: { width: number; height: number }): void } };
const happyDom = (window as unknown as HappyDomWindow).happyDOM;
const initialViewport = { width: window.innerWidth, height: window.innerHeight };

/** The labelled lines of a stacked item, as label → value. */
function fieldsOf(item: HTMLElement): Record<string, string | null | undefined> {
  return Object.fromEntries(
    within(item)
      .getAllByRole('term')
      .map((term) => [term.textContent, term.nextElementSibling?.textContent]),
  );
}

describe('AdminProjectPage by window width', () => {
  afterEach(() => {
    act(() => happyDom.setViewport(initialViewport));
  });

  it('on a phone (390 px) stacks each member, client and bot with every column labelled and every action', async () => {
    happyDom.setViewport({ width: 390, height: 844 });
    renderPage(true);

    const members = await screen.findByRole('list', { name: 'Project members' });
    const [alice, ben] = within(members).getAllByRole('listitem');
    expect(alice).toHaveAccessibleName('Alice Admin');
    expect(within(alice).getByRole('link', { name: 'Alice Admin' })).toHaveAttribute('href', '/Practitioner/p2');
    expect(fieldsOf(alice)).toEqual({
      'E-mail': 'alice@demo.hearth.example',
      'Access policy': 'None (full access)',
      Admin: 'Admin',
    });
    expect(ben).toHaveAccessibleName('Ben Front');
    expect(fieldsOf(ben)).toEqual({ 'E-mail': 'ben@demo.hearth.example', 'Access policy': 'Front desk', Admin: 'No' });
    fireEvent.click(within(ben).getByRole('button', { name: 'Edit Ben Front' }));
    expect(await screen.findByRole('dialog', { name: 'Member: Ben Front' })).toBeInTheDocument();
    fireEvent.keyDown(screen.getByRole('dialog', { name: 'Member: Ben Front' }), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Member: Ben Front' })).toBeNull());

    const clients = await screen.findByRole('list', { name: 'Client applications' });
    const lab = within(clients).getByRole('listitem', { name: 'Lab feed' });
    expect(fieldsOf(lab)['Client ID']).toBe('c1');
    const secret = within(lab).getByLabelText('Secret of Lab feed') as HTMLInputElement;
    expect(secret.type).toBe('password');
    expect(secret.value).toBe('s3cr3t');

    const bots = await screen.findByRole('list', { name: 'Bots' });
    const reminder = within(bots).getByRole('listitem', { name: 'Reminder' });
    expect(fieldsOf(reminder)).toEqual({ ID: 'b1' });
    fireEvent.click(within(reminder).getByRole('button', { name: 'Run Reminder' }));
    expect(await screen.findByRole('dialog', { name: 'Run Reminder' })).toBeInTheDocument();
    expect(within(reminder).getByRole('button', { name: 'Deploy Reminder', hidden: true })).toBeInTheDocument();

    expect(screen.queryAllByRole('table', { hidden: true })).toEqual([]);
  });

  it('on a wide screen (1280 px) keeps the members, clients and bots tables', async () => {
    happyDom.setViewport({ width: 1280, height: 900 });
    renderPage(true);
    const members = await screen.findByRole('table', { name: 'Project members' });
    expect(within(members).getAllByRole('row')).toHaveLength(3);
    expect(within(members).getByRole('button', { name: 'Edit Ben Front' })).toBeInTheDocument();
    const clients = await screen.findByRole('table', { name: 'Client applications' });
    expect(within(clients).getByLabelText('Secret of Lab feed')).toBeInTheDocument();
    const bots = await screen.findByRole('table', { name: 'Bots' });
    expect(within(bots).getByRole('button', { name: 'Deploy Reminder' })).toBeInTheDocument();
    expect(within(bots).getByRole('button', { name: 'Run Reminder' })).toBeInTheDocument();
    for (const name of ['Project members', 'Client applications', 'Bots']) {
      expect(screen.queryByRole('list', { name })).toBeNull();
    }
  });
});
