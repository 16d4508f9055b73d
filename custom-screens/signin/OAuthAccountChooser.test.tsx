import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FakeFetch, fakeJwt, jsonResponse, type RecordedCall } from '../../data-provider/client/fakeFetch';
import { FhirClient, LOGIN_STORAGE_KEYS, type LaunchAvailability, type LoginState } from '../../data-provider/client';
import { MemoryStorage } from '../../data-provider/client/clientStorage';
import { OAuthPage } from './OAuthPage';
import { refusal, renderAt, sentJson, server } from './signInTestSupport';

const appLink =
  '/oauth?response_type=code&client_id=app-7&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&scope=openid%20patient%2F*.read%20launch%2Fpatient&state=st-1&code_challenge=CH&code_challenge_method=S256';
/** The same app opened from a chart: an EHR launch, which only the account that started it can continue into. */
const launchLink = `${appLink.replace('launch%2Fpatient', 'launch')}&launch=L-9`;

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

function login(id: string, exp = inAnHour(), refreshToken?: string): LoginState {
  return {
    accessToken: fakeJwt({ exp, sub: id }),
    ...(refreshToken ? { refreshToken } : {}),
    profile: { reference: `Practitioner/${id}`, display: id },
    project: { reference: 'Project/p1', display: 'Demo Clinic' },
  };
}

function session(id: string, given: string, family: string, email: string, project = 'Demo Clinic') {
  return {
    user: { resourceType: 'User', id: `u-${id}`, email },
    profile: { resourceType: 'Practitioner', id, name: [{ given: [given], family }] },
    project: { resourceType: 'Project', id: 'p1', name: project },
    membership: { resourceType: 'ProjectMembership', id: `m-${id}` },
  };
}

const alice = login('alice');
const ben = login('ben');
const sessions: Record<string, ReturnType<typeof session>> = {
  alice: session('alice', 'Alice', 'Carter', 'alice@demo.example'),
  ben: session('ben', 'Ben', 'Okafor', 'ben@demo.example'),
  cara: session('cara', 'Cara', 'Nwosu', 'cara@demo.example'),
  dan: session('dan', 'Dan', 'Reyes', 'dan@demo.example', 'Lakeside Practice'),
};

// happy-dom's Headers keeps the header's case as the client wrote it.
const bearer = (call: RecordedCall) =>
  (call.headers.Authorization ?? call.headers.authorization)?.replace(/^Bearer /, '');
const subjectOf = (token: string | undefined) =>
  token ? (JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()) as { sub?: string }).sub : '';

/**
 * A browser where these accounts are signed in (`logins` in the account menu's order, `active` the
 * one the app's tabs use); `auth/me` answers each token with its account's session unless `ended`,
 * and the launch question each with `launches` (`unknown` for an account not named there).
 */
function browserWith(
  logins: LoginState[],
  active: LoginState | undefined,
  ended: string[] = [],
  launches: Record<string, LaunchAvailability> = {},
) {
  const storage = new MemoryStorage();
  storage.setItem(LOGIN_STORAGE_KEYS.logins, JSON.stringify(logins));
  if (active) storage.setItem(LOGIN_STORAGE_KEYS.activeLogin, JSON.stringify(active));
  const fake = new FakeFetch();
  fake.on('GET', `${server}auth/me`, (call) => {
    const id = subjectOf(bearer(call)) ?? '';
    return ended.includes(id) || !sessions[id] ? refusal('Unauthorized', undefined, 401) : jsonResponse(sessions[id]);
  });
  fake.on('GET', `${server}auth/continue/launch/L-9`, (call) =>
    jsonResponse(launches[subjectOf(bearer(call)) ?? ''] ?? { usable: false, reason: 'unknown' }),
  );
  const client = new FhirClient({ baseUrl: server, fetch: fake.fetch, storage, autoBatchTime: 0 });
  return { fake, client, storage };
}

const continueButtons = () =>
  within(screen.getByRole('list', { name: 'Accounts signed in in this browser' }))
    .queryAllByRole('button')
    .map((button) => button.getAttribute('aria-label'));

describe('/oauth account chooser: every account signed in in this browser', { timeout: 20_000 }, () => {
  it('lists the usable accounts, the active one first, each with its project and e-mail', async () => {
    // Alice is active but stored last (she was switched to most recently); Cara's session has ended.
    const cara = login('cara');
    const { client, fake } = browserWith([ben, cara, alice], alice, ['cara']);
    renderAt(<OAuthPage client={client} redirect={vi.fn()} />, appLink);
    expect(await screen.findByText('ben@demo.example')).toBeInTheDocument();
    expect(continueButtons()).toEqual(['Continue as Alice Carter, Demo Clinic', 'Continue as Ben Okafor, Demo Clinic']);
    const [first, second] = within(
      screen.getByRole('list', { name: 'Accounts signed in in this browser' }),
    ).getAllByRole('listitem');
    expect(first).toHaveTextContent('Alice Carter');
    expect(first).toHaveTextContent('alice@demo.example');
    expect(first).toHaveTextContent('In use in Hearth EMR');
    expect(second).toHaveTextContent('Demo Clinic');
    expect(second).not.toHaveTextContent('In use in Hearth EMR');
    expect(screen.getByText(/asks to use your Hearth EMR account\. Choose an account:/)).toBeInTheDocument();
    // Never a dead button: the ended session is not offered.
    expect(screen.queryByText(/Cara/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Use another account' })).toBeEnabled();
    // Each account was checked with its own token.
    expect(
      fake
        .callsTo('GET', /auth\/me/)
        .map((call) => subjectOf(bearer(call)))
        .sort(),
    ).toEqual(['alice', 'ben', 'cara']);
  });

  it('continues as an account that is not the active one, with its token, and leaves the active one active', async () => {
    const { client, fake, storage } = browserWith([alice, ben], alice);
    const redirect = vi.fn();
    fake.on(
      'POST',
      `${server}auth/continue`,
      jsonResponse({ login: 'l-ben', scopes: ['patient/*.read', 'launch/patient'] }),
    );
    fake.on('POST', `${server}auth/scope`, jsonResponse({ login: 'l-ben', code: 'ben-code' }));
    renderAt(<OAuthPage client={client} redirect={redirect} />, appLink);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Continue as Ben Okafor, Demo Clinic' }));
    expect(await screen.findByRole('heading', { name: 'Choose scope' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Set scope' }));
    await waitFor(() => expect(redirect).toHaveBeenCalledWith('https://app.example/cb?code=ben-code&state=st-1'));
    const [sent] = fake.callsTo('POST', /auth\/continue/);
    expect(bearer(sent!)).toBe(ben.accessToken);
    expect(sentJson(sent!)).toMatchObject({
      clientId: 'app-7',
      redirectUri: 'https://app.example/cb',
      codeChallenge: 'CH',
    });
    // The app's tabs still use Alice's session.
    expect(client.getActiveLogin()?.accessToken).toBe(alice.accessToken);
    expect(JSON.parse(storage.getItem(LOGIN_STORAGE_KEYS.activeLogin) ?? '{}')).toEqual(alice);
  });

  it('renews an account whose access token expired, keeps it inactive, and continues with the new token', async () => {
    const expired = login('ben', Math.floor(Date.now() / 1000) - 60, 'ben-refresh-1');
    const renewedToken = fakeJwt({ exp: inAnHour(), sub: 'ben' });
    const { client, fake, storage } = browserWith([expired, alice], alice);
    fake.on(
      'POST',
      `${server}oauth2/token`,
      jsonResponse({ access_token: renewedToken, refresh_token: 'ben-refresh-2' }),
    );
    fake.on('POST', `${server}auth/continue`, jsonResponse({ login: 'l-ben', code: 'ben-code' }));
    const redirect = vi.fn();
    renderAt(<OAuthPage client={client} redirect={redirect} />, appLink);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: /^Continue as Ben Okafor/ }));
    await waitFor(() => expect(redirect).toHaveBeenCalledWith('https://app.example/cb?code=ben-code&state=st-1'));
    // One renewal (the refresh token is good once), sent as a form with the spent token.
    const renewals = fake.callsTo('POST', /oauth2\/token/);
    expect(renewals).toHaveLength(1);
    expect(new URLSearchParams(renewals[0]!.body as string).get('refresh_token')).toBe('ben-refresh-1');
    expect(bearer(fake.callsTo('POST', /auth\/continue/)[0]!)).toBe(renewedToken);
    const stored = JSON.parse(storage.getItem(LOGIN_STORAGE_KEYS.logins) ?? '[]') as LoginState[];
    expect(stored.map((entry) => entry.refreshToken ?? 'none')).toEqual(['ben-refresh-2', 'none']);
    expect(client.getActiveLogin()?.accessToken).toBe(alice.accessToken);
  });

  it('leaves out an expired account that cannot be renewed, and asks for credentials when none is left', async () => {
    const expired = login('ben', Math.floor(Date.now() / 1000) - 60, 'ben-refresh-spent');
    const { client, fake } = browserWith([expired], undefined);
    fake.on('POST', `${server}oauth2/token`, jsonResponse({ error: 'invalid_grant' }, 400));
    renderAt(<OAuthPage client={client} redirect={vi.fn()} />, appLink);
    expect(await screen.findByLabelText(/Email/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Continue as/ })).not.toBeInTheDocument();
    expect(fake.callsTo('GET', /auth\/me/)).toHaveLength(0);
  });

  it("names the server's refusal, takes that account's button away and keeps the others usable", async () => {
    const dan = login('dan');
    const { client, fake } = browserWith([alice, ben, dan], alice);
    fake.on('POST', `${server}auth/continue`, (call) =>
      subjectOf(bearer(call)) === 'ben'
        ? refusal(
            'A session limited by SMART scopes cannot continue into another application: sign in on this page instead',
            undefined,
            403,
          )
        : refusal('Unauthorized', undefined, 401),
    );
    const redirect = vi.fn();
    renderAt(<OAuthPage client={client} redirect={redirect} />, appLink);
    const user = userEvent.setup({ delay: null });

    await user.click(await screen.findByRole('button', { name: /^Continue as Ben Okafor/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Ben Okafor: A session limited by SMART scopes cannot continue into another application',
    );
    expect(screen.getByText('Cannot continue into this application')).toBeInTheDocument();
    expect(continueButtons()).toEqual([
      'Continue as Alice Carter, Demo Clinic',
      'Continue as Dan Reyes, Lakeside Practice',
    ]);

    // Dan's session ended meanwhile: said by name, and his card says how to get back in.
    await user.click(screen.getByRole('button', { name: /^Continue as Dan Reyes/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The session of Dan Reyes in this browser has ended. Choose "Use another account" to sign in again.',
    );
    expect(screen.getByText('Signed out: sign in again with "Use another account"')).toBeInTheDocument();
    expect(continueButtons()).toEqual(['Continue as Alice Carter, Demo Clinic']);
    expect(screen.getByRole('button', { name: /^Continue as Alice Carter/ })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Use another account' })).toBeEnabled();
    // A refusal about Dan never ends Alice's session in the app's tabs.
    expect(client.getActiveLogin()?.accessToken).toBe(alice.accessToken);
    expect(redirect).not.toHaveBeenCalled();
  });

  it('lists a refusal of the request itself (it names a field) and keeps every account offered', async () => {
    const { client, fake } = browserWith([alice, ben], alice);
    fake.on('POST', `${server}auth/continue`, refusal('Invalid redirect_uri', 'redirectUri'));
    renderAt(<OAuthPage client={client} redirect={vi.fn()} />, appLink);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: /^Continue as Ben Okafor/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid redirect_uri');
    expect(continueButtons()).toEqual(['Continue as Alice Carter, Demo Clinic', 'Continue as Ben Okafor, Demo Clinic']);
  });

  it('offers the accounts by keyboard: Tab reaches each "Continue as" and Enter continues', async () => {
    const { client, fake } = browserWith([alice, ben], alice);
    fake.on('POST', `${server}auth/continue`, jsonResponse({ login: 'l-ben', code: 'ben-code' }));
    const redirect = vi.fn();
    renderAt(<OAuthPage client={client} redirect={redirect} />, appLink);
    await screen.findByRole('button', { name: /^Continue as Ben Okafor/ });
    const user = userEvent.setup({ delay: null });
    await user.tab();
    expect(screen.getByRole('button', { name: /^Continue as Alice Carter/ })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: /^Continue as Ben Okafor/ })).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(redirect).toHaveBeenCalledWith('https://app.example/cb?code=ben-code&state=st-1'));
  });

  it('checks no account when the app sends prompt=login: only the credentials form', async () => {
    const { client, fake } = browserWith([alice, ben], alice);
    renderAt(<OAuthPage client={client} redirect={vi.fn()} />, `${appLink}&prompt=login`);
    expect(await screen.findByLabelText(/Email/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Continue as/ })).not.toBeInTheDocument();
    expect(fake.callsTo('GET', /auth\/me/)).toHaveLength(0);
  });
});

/**
 * An app opened from Alice's chart (an EHR launch): only the account that started the launch can
 * continue into it — the token endpoint refuses anyone else's sign-in — so the page asks the server
 * about each account and offers only that one, saying why the others are not offered. Before, every
 * account was offered and Ben's was refused after the click.
 */
describe('/oauth account chooser for an EHR launch', { timeout: 20_000 }, () => {
  const usable: LaunchAvailability = { usable: true };
  const someoneElse: LaunchAvailability = { usable: false, reason: 'startedBySomeoneElse' };
  const notOffered = () => screen.getByRole('status');

  it('offers only the launcher and says in words why the others are not offered', async () => {
    const dan = login('dan');
    const { client, fake } = browserWith([ben, alice, dan], alice, [], { alice: usable, ben: someoneElse });
    renderAt(<OAuthPage client={client} redirect={vi.fn()} />, launchLink);
    expect(await screen.findByRole('button', { name: 'Continue as Alice Carter, Demo Clinic' })).toBeEnabled();
    expect(continueButtons()).toEqual(['Continue as Alice Carter, Demo Clinic']);
    expect(screen.getByText(/You are signed in as:/)).toBeInTheDocument();
    expect(notOffered()).toHaveTextContent(
      'Ben Okafor (Demo Clinic) is not offered: the application was launched from another account, and only the account that launched it can continue.',
    );
    expect(notOffered()).toHaveTextContent(
      'Dan Reyes (Lakeside Practice) is not offered: this launch belongs to another project.',
    );
    // Each account was asked about with its own token; the rule stays the server's.
    expect(
      fake
        .callsTo('GET', /auth\/continue\/launch\/L-9$/)
        .map((call) => subjectOf(bearer(call)))
        .sort(),
    ).toEqual(['alice', 'ben', 'dan']);
    expect(screen.getByRole('button', { name: 'Use another account' })).toBeEnabled();
  });

  it('offers the launcher even when another account is the one in use, and continues with the launch', async () => {
    const { client, fake } = browserWith([alice, ben], alice, [], { alice: someoneElse, ben: usable });
    fake.on('POST', `${server}auth/continue`, jsonResponse({ login: 'l-ben', code: 'ben-code' }));
    const redirect = vi.fn();
    renderAt(<OAuthPage client={client} redirect={redirect} />, launchLink);
    const user = userEvent.setup({ delay: null });
    const continueAsBen = await screen.findByRole('button', { name: 'Continue as Ben Okafor, Demo Clinic' });
    expect(continueButtons()).toEqual(['Continue as Ben Okafor, Demo Clinic']);
    expect(notOffered()).toHaveTextContent('Alice Carter (Demo Clinic) is not offered');
    await user.click(continueAsBen);
    await waitFor(() => expect(redirect).toHaveBeenCalledWith('https://app.example/cb?code=ben-code&state=st-1'));
    const [sent] = fake.callsTo('POST', /auth\/continue$/);
    expect(bearer(sent!)).toBe(ben.accessToken);
    expect(sentJson(sent!)).toMatchObject({ clientId: 'app-7', launch: 'L-9', redirectUri: 'https://app.example/cb' });
    expect(client.getActiveLogin()?.accessToken).toBe(alice.accessToken);
  });

  it.each([
    [
      'expired',
      'This launch has expired: a launch can be used for 15 minutes. Launch the application again from the chart.',
    ],
    ['used', 'This launch was already used to sign in. Launch the application again from the chart.'],
  ] as const)('says the launch is %s instead of offering accounts, and offers no dead end', async (reason, text) => {
    const { client } = browserWith([alice, ben], alice, [], {
      alice: { usable: false, reason },
      ben: someoneElse,
    });
    renderAt(<OAuthPage client={client} redirect={vi.fn()} />, launchLink);
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
    expect(screen.queryByRole('list', { name: 'Accounts signed in in this browser' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Continue as|Use another account/ })).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/Email/)).not.toBeInTheDocument();
  });

  it('says when no account here started the launch or knows it, and lets another account sign in', async () => {
    const { client } = browserWith([alice, ben], alice, [], { alice: someoneElse, ben: someoneElse });
    renderAt(<OAuthPage client={client} redirect={vi.fn()} />, launchLink);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The application was launched from an account that is not signed in in this browser, and only that account can continue.',
    );
    expect(screen.queryByRole('button', { name: /Continue as/ })).not.toBeInTheDocument();
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Use another account' }));
    expect(await screen.findByLabelText(/Email/)).toBeInTheDocument();
  });

  it('says a launch no account knows is unknown', async () => {
    const { client } = browserWith([alice, ben], alice);
    renderAt(<OAuthPage client={client} redirect={vi.fn()} />, launchLink);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'None of the accounts signed in in this browser knows this launch',
    );
    expect(screen.getByRole('button', { name: 'Use another account' })).toBeEnabled();
  });
});
