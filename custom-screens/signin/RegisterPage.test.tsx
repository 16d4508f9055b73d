import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../data-provider/client/fakeFetch';
import { RegisterPage } from './RegisterPage';
import { fakeServer, refusal, renderAt, sentJson, server } from './signInTestSupport';

// Typing key by key is slow on a busy machine; the fields only need their values.
function fill(values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    fireEvent.change(screen.getByLabelText(new RegExp(label)), { target: { value } });
  }
}

describe('RegisterPage (/register)', { timeout: 20_000 }, () => {
  it('requires every field and shows the server errors under them', async () => {
    const { fake, client } = fakeServer();
    fake.once('POST', `${server}auth/newuser`, refusal('Email already registered', 'email'));
    renderAt(<RegisterPage client={client} onSignedIn={vi.fn()} />, '/register');
    const user = userEvent.setup({ delay: null });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Create account' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('First name is required')).toBeInTheDocument();
    fill({
      'First name': 'Ada',
      'Last name': 'Lovelace',
      Email: 'ada@example.org',
      Password: 'long password',
    });
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Project Name is required')).toBeInTheDocument();
    expect(fake.callsTo('POST', /auth\/newuser/)).toHaveLength(0);
    fill({ 'Project Name': 'Ada Clinic' });
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Email already registered')).toBeInTheDocument();
  });

  it('creates the account, then the project; a failed project step retries only the project, then signs in', async () => {
    const { fake, client } = fakeServer();
    const onSignedIn = vi.fn();
    fake.once('POST', `${server}auth/newuser`, jsonResponse({ login: 'l1' }));
    fake.once('POST', `${server}auth/newproject`, refusal('Project name is too long', 'projectName'));
    fake.once('POST', `${server}auth/newproject`, jsonResponse({ login: 'l1', code: 'c1' }));
    renderAt(<RegisterPage client={client} onSignedIn={onSignedIn} />, '/register?next=%2FPatient');
    const user = userEvent.setup({ delay: null });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Create account' })).toBeEnabled());
    fill({
      'First name': 'Ada',
      'Last name': 'Lovelace',
      Email: 'ada@example.org',
      Password: 'long password',
      'Project Name': 'x',
    });
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Project name is too long')).toBeInTheDocument();
    expect(screen.getByLabelText(/Email/)).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith('/Patient'));
    expect(fake.callsTo('POST', /auth\/newuser/)).toHaveLength(1);
    expect(sentJson(fake.callsTo('POST', /auth\/newuser/)[0])).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.org',
      codeChallengeMethod: 'S256',
    });
    expect(sentJson(fake.callsTo('POST', /auth\/newproject/)[1])).toEqual({ login: 'l1', projectName: 'x' });
  });

  it('says registration is closed when the server says so', async () => {
    const { client } = fakeServer({ registration: 'closed', googleClientId: null });
    renderAt(<RegisterPage client={client} />, '/register');
    expect(await screen.findByText(/Registration is closed on this server/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create account' })).not.toBeInTheDocument();
  });
});
