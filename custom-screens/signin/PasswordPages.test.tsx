import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse } from '../../data-provider/client/fakeFetch';
import { RESET_SENT_MESSAGE, ResetPasswordPage } from './ResetPasswordPage';
import { SetPasswordPage } from './SetPasswordPage';
import { fakeServer, refusal, renderAt, sentJson, server } from './signInTestSupport';

describe('ResetPasswordPage (/resetpassword)', { timeout: 20_000 }, () => {
  it('checks the email, then gives the same neutral answer', async () => {
    const { fake, client } = fakeServer();
    fake.on('POST', `${server}auth/resetpassword`, jsonResponse({ ok: true }));
    renderAt(<ResetPasswordPage client={client} />, '/resetpassword');
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText(/Email/), 'nope');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
    await user.clear(screen.getByLabelText(/Email/));
    await user.type(screen.getByLabelText(/Email/), 'who@example.org');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText(RESET_SENT_MESSAGE)).toBeInTheDocument();
    expect(sentJson(fake.calls.find((c) => c.url.endsWith('auth/resetpassword'))!)).toEqual({
      email: 'who@example.org',
    });
  });
});

describe('SetPasswordPage (/setpassword/:id/:secret)', { timeout: 20_000 }, () => {
  const path = '/setpassword/req-1/sec-2';
  const route = '/setpassword/:id/:secret';

  it('needs the password twice, shows the rules under the field and a used link above the form', async () => {
    const { fake, client } = fakeServer();
    fake.once('POST', `${server}auth/setpassword`, refusal('Password must be at least 8 characters', 'password'));
    fake.once('POST', `${server}auth/setpassword`, refusal('This password link is invalid or has expired', 'secret'));
    renderAt(<SetPasswordPage client={client} />, path, route);
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText(/New password/), 'short');
    await user.type(screen.getByLabelText(/Confirm password/), 'other');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    await user.clear(screen.getByLabelText(/Confirm password/));
    await user.type(screen.getByLabelText(/Confirm password/), 'short');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This password link is invalid or has expired');
  });

  it('sets the password with the id and secret of the link', async () => {
    const { fake, client } = fakeServer();
    fake.once('POST', `${server}auth/setpassword`, jsonResponse({ ok: true }));
    renderAt(<SetPasswordPage client={client} />, path, route);
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText(/New password/), 'a new password');
    await user.type(screen.getByLabelText(/Confirm password/), 'a new password');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText(/Your password is set/)).toBeInTheDocument();
    expect(sentJson(fake.callsTo('POST', /auth\/setpassword/)[0])).toEqual({
      id: 'req-1',
      secret: 'sec-2',
      password: 'a new password',
    });
  });
});
