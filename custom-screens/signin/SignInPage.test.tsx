import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../data-provider/client/fakeFetch';
import { SignInPage } from './SignInPage';
import { fakeServer, membership, refusal, renderAt, sentJson, server } from './signInTestSupport';

function setup(
  path = '/signin',
  registration?: Parameters<typeof fakeServer>[0],
  method: Record<string, unknown> = { method: 'password' },
) {
  const { fake, client } = fakeServer(registration);
  const onSignedIn = vi.fn();
  const redirect = vi.fn();
  fake.on('POST', `${server}auth/method`, jsonResponse(method));
  renderAt(<SignInPage client={client} onSignedIn={onSignedIn} redirect={redirect} />, path);
  return { fake, client, onSignedIn, redirect, user: userEvent.setup({ delay: null }) };
}

async function toPassword(user: ReturnType<typeof userEvent.setup>, email = 'alice@demo.example') {
  await user.type(screen.getByLabelText(/Email/), email);
  await user.click(screen.getByRole('button', { name: 'Next' }));
  await screen.findByLabelText(/Password/);
}

describe('SignInPage (/signin)', { timeout: 20_000 }, () => {
  it('starts at the email step: logo, heading, Register link when registration is open, no Google button', async () => {
    setup();
    expect(screen.getByRole('heading', { name: 'Sign in to Hearth EMR' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Hearth EMR' })).toBeInTheDocument();
    expect(screen.getByLabelText(/Email/)).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText(/Email/)).toBeRequired();
    expect(await screen.findByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
    expect(screen.queryByText('or')).not.toBeInTheDocument();
  });

  it('offers no Register link when registration is closed, and the Google button with an "or" divider when configured', async () => {
    setup('/signin', { registration: 'closed', googleClientId: 'g-123' });
    expect(await screen.findByText('or')).toBeInTheDocument();
    expect(screen.getByTestId('google-sign-in')).toBeInTheDocument();
    // No connection to Google here: the button says so instead of failing silently.
    expect(await screen.findByText(/Sign in with Google is unavailable/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Register' })).not.toBeInTheDocument();
  });

  it('refuses an empty or malformed email under the field without calling the server', async () => {
    const { fake, user } = setup();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/Email/), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
    expect(fake.callsTo('POST', /auth\/method/)).toHaveLength(0);
  });

  it('sends the browser to the identity provider of the email domain, with a return address keeping next', async () => {
    const { fake, redirect, user } = setup('/signin?next=%2FPatient%3Fname%3Dx', undefined, {
      method: 'external',
      authorizeUrl: 'https://idp/authorize?state=s1',
    });
    await user.type(screen.getByLabelText(/Email/), 'someone@sso.example');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(fake.callsTo('POST', /auth\/method/)).toHaveLength(1));
    const sent = sentJson(fake.callsTo('POST', /auth\/method/)[0]);
    expect(sent.redirectUri).toBe(`${window.location.origin}/signin?next=%2FPatient%3Fname%3Dx`);
    expect(sent.codeChallengeMethod).toBe('S256');
    await waitFor(() => expect(redirect).toHaveBeenCalledWith('https://idp/authorize?state=s1'));
    expect(screen.queryByLabelText(/Password/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('shows a wrong password under the Password field and keeps it for correction', async () => {
    const { fake, user } = setup();
    fake.once('POST', `${server}auth/login`, refusal('Email or password is invalid', 'password'));
    await toPassword(user);
    expect(screen.getByText('alice@demo.example')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot password' })).toHaveAttribute('href', '/resetpassword');
    await user.type(screen.getByLabelText(/Password/), 'wrong one');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const field = screen.getByLabelText(/Password/);
    expect(await screen.findByText('Email or password is invalid')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveValue('wrong one');
  });

  it('shows a lockout (429, no field) as an alert above the form', async () => {
    const { fake, user } = setup();
    fake.once(
      'POST',
      `${server}auth/login`,
      refusal('Too many failed sign-in attempts. Try again in 15 minutes.', undefined, 429),
    );
    await toPassword(user);
    await user.type(screen.getByLabelText(/Password/), 'pw');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many failed sign-in attempts');
  });

  it('requires the password before calling the server, and sends Remember me', async () => {
    const { fake, user, onSignedIn } = setup('/signin?next=%2FTask');
    fake.once('POST', `${server}auth/login`, jsonResponse({ login: 'l1', code: 'c1' }));
    await toPassword(user);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Password is required')).toBeInTheDocument();
    expect(fake.callsTo('POST', /auth\/login/)).toHaveLength(0);
    await user.type(screen.getByLabelText(/Password/), 'good password');
    await user.click(screen.getByLabelText('Remember me'));
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith('/Task'));
    expect(sentJson(fake.callsTo('POST', /auth\/login/)[0])).toMatchObject({
      remember: true,
      password: 'good password',
    });
    expect(fake.callsTo('POST', /oauth2\/token/)[0].body).toContain('code=c1');
  });

  it('never follows a next that leaves the site', async () => {
    const { fake, user, onSignedIn } = setup('/signin?next=%2F%2Fevil.example%2Fx');
    fake.once('POST', `${server}auth/login`, jsonResponse({ login: 'l1', code: 'c1' }));
    await toPassword(user);
    await user.type(screen.getByLabelText(/Password/), 'pw');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith('/'));
  });

  it('MFA: a refused code shows a red alert titled Error; the right one leads to the profile choice', async () => {
    const { fake, user, onSignedIn } = setup();
    fake.once('POST', `${server}auth/login`, jsonResponse({ login: 'l1', mfaRequired: true }));
    fake.once('POST', `${server}auth/mfa/verify`, refusal('Invalid MFA code', 'token'));
    const many = Array.from({ length: 12 }, (_, i) =>
      membership(`m${i}`, `Doctor ${i}`, i === 11 ? 'Far Clinic' : 'Clinic'),
    );
    fake.once('POST', `${server}auth/mfa/verify`, jsonResponse({ login: 'l1', memberships: many }));
    fake.once('POST', `${server}auth/profile`, jsonResponse({ login: 'l1', code: 'c2' }));
    await toPassword(user);
    await user.type(screen.getByLabelText(/Password/), 'pw');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await user.click(await screen.findByRole('button', { name: 'Submit code' }));
    expect(await screen.findByText('MFA code is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/MFA code/), '000000');
    await user.click(screen.getByRole('button', { name: 'Submit code' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error')).toBeInTheDocument();
    expect(alert).toHaveTextContent('Invalid MFA code');
    await user.clear(screen.getByLabelText(/MFA code/));
    await user.type(screen.getByLabelText(/MFA code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Submit code' }));

    expect(await screen.findByRole('heading', { name: 'Choose profile' })).toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Profiles' });
    expect(within(list).getAllByRole('button')).toHaveLength(10);
    await user.type(screen.getByLabelText('Search'), 'far');
    expect(within(list).getAllByRole('button')).toHaveLength(1);
    await user.clear(screen.getByLabelText('Search'));
    await user.type(screen.getByLabelText('Search'), 'nobody');
    expect(await screen.findByText('Nothing found...')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Search'));
    await user.type(screen.getByLabelText('Search'), 'Doctor 3');
    await user.click(screen.getByRole('button', { name: /Doctor 3/ }));
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith('/'));
    expect(sentJson(fake.callsTo('POST', /auth\/profile/)[0])).toEqual({ login: 'l1', profile: 'm3' });
  });

  it('a profile refused by the server shows its outcome', async () => {
    const { fake, user } = setup();
    fake.once(
      'POST',
      `${server}auth/login`,
      jsonResponse({ login: 'l1', memberships: [membership('a', 'A', 'P'), membership('b', 'B', 'Q')] }),
    );
    fake.once('POST', `${server}auth/profile`, refusal('This membership is not active', undefined, 403));
    await toPassword(user);
    await user.type(screen.getByLabelText(/Password/), 'pw');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await user.click(await screen.findByRole('button', { name: /^A/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This membership is not active');
  });

  it('an account without a project creates one: Project Name required, server errors under it', async () => {
    const { fake, user, onSignedIn } = setup();
    fake.once('POST', `${server}auth/login`, jsonResponse({ login: 'l1', memberships: [] }));
    fake.once('POST', `${server}auth/newproject`, refusal('Project name is too long', 'projectName'));
    fake.once('POST', `${server}auth/newproject`, jsonResponse({ login: 'l1', code: 'c3' }));
    await toPassword(user);
    await user.type(screen.getByLabelText(/Password/), 'pw');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Create project' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Project Name is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/Project Name/), 'My clinic');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Project name is too long')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith('/'));
    expect(sentJson(fake.callsTo('POST', /auth\/newproject/)[1])).toEqual({ login: 'l1', projectName: 'My clinic' });
  });

  it('a failure that is not an answer of the server (no connection) becomes a red toast', async () => {
    const { fake, user } = setup();
    fake.on('POST', `${server}auth/login`, () => Promise.reject(new TypeError('Failed to fetch')));
    await toPassword(user);
    await user.type(screen.getByLabelText(/Password/), 'pw');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(
      await screen.findByText('The server could not be reached (no connection)', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText(/Password/)).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('continues a sign-in back from the identity provider: login → MFA step; code → signed in', async () => {
    const first = setup('/signin?login=l9');
    first.fake.on(
      'GET',
      `${server}auth/login/l9`,
      jsonResponse({ id: 'l9', email: 'x@sso.example', mfaRequired: true, memberships: [] }),
    );
    expect(await screen.findByRole('button', { name: 'Submit code' })).toBeInTheDocument();
  });

  it('signs in with the code brought back from the identity provider, and shows its errors', async () => {
    const { onSignedIn } = setup('/signin?login=l8&code=c8&next=%2FTask');
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith('/Task'));
  });

  it('shows the error brought back from the identity provider', async () => {
    setup('/signin?error=No%20Hearth%20EMR%20account%20matches%20this%20identity');
    expect(await screen.findByRole('alert')).toHaveTextContent('No Hearth EMR account matches this identity');
    expect(screen.getByLabelText(/Email/)).toBeInTheDocument();
  });
});
