// The SMART launch check: a SMART App Launch 2.0 public client (authorization code with PKCE S256),
// written without a library so that every step an app takes is visible here. It is another app to
// Hearth EMR: it never reads the EMR's own session, only the token it is given.

const scope = 'launch openid fhirUser patient/*.read';
const query = new URLSearchParams(window.location.search);
const statusLine = document.getElementById('status');
const result = document.getElementById('result');

function show(text, kind = '') {
  statusLine.textContent = text;
  statusLine.className = kind;
}

function base64url(bytes) {
  return btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

function randomText() {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/** This page is the app's redirect URI: its address without the query. */
function redirectUri() {
  return `${window.location.origin}${window.location.pathname}`;
}

async function json(response, what) {
  const body = await response.json().catch(() => undefined);
  if (!response.ok) {
    const detail = body?.error_description ?? body?.issue?.[0]?.details?.text ?? body?.error ?? response.statusText;
    throw new Error(`${what} failed (${response.status}): ${detail}`);
  }
  return body;
}

/** EHR launch: `iss` and `launch` from the chart, the client id from the registered launch URI. */
async function startLaunch() {
  const iss = query.get('iss');
  const launch = query.get('launch');
  const clientId = query.get('client_id');
  if (!iss || !launch || !clientId) {
    show("Open this app from a patient's chart in Hearth EMR: Apps → SMART launch check.", 'error');
    return;
  }
  show('Asking the EHR how to sign in…');
  const configuration = await json(await fetch(`${iss}/.well-known/smart-configuration`), 'Discovery');
  const verifier = randomText();
  const challenge = base64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  const state = randomText();
  sessionStorage.setItem(
    `smart-launch-check:${state}`,
    JSON.stringify({ iss, clientId, verifier, tokenEndpoint: configuration.token_endpoint }),
  );
  const authorize = new URL(configuration.authorization_endpoint);
  for (const [name, value] of Object.entries({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri(),
    scope,
    state,
    aud: iss,
    launch,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }))
    authorize.searchParams.set(name, value);
  show('Sending you to the EHR to sign in…');
  window.location.assign(authorize.toString());
}

function addRow(name, value) {
  const term = document.createElement('dt');
  term.textContent = name;
  const detail = document.createElement('dd');
  detail.textContent = value;
  result.append(term, detail);
}

function nameOf(patient) {
  const name = patient.name?.[0];
  if (!name) return 'No name recorded';
  return name.text ?? [...(name.given ?? []), name.family].filter(Boolean).join(' ');
}

/** A FHIR date (`2000-11-15`, or only a year or month) as people read it, in the browser's language. */
function readableDate(date) {
  const [year, month, day] = date.split('-').map(Number);
  if (!month) return String(year);
  const options = day ? { day: 'numeric', month: 'short', year: 'numeric' } : { month: 'long', year: 'numeric' };
  return new Date(Date.UTC(year, month - 1, day || 1)).toLocaleDateString(undefined, { ...options, timeZone: 'UTC' });
}

/** Back from the EHR with a code (or an error): the token, then what it opens. */
async function finishLaunch() {
  const error = query.get('error');
  if (error) throw new Error(`The EHR refused the launch: ${query.get('error_description') ?? error}`);
  const state = query.get('state') ?? '';
  const saved = JSON.parse(sessionStorage.getItem(`smart-launch-check:${state}`) ?? 'null');
  if (!saved)
    throw new Error('This answer belongs to no launch started in this tab; launch the app again from the chart.');
  sessionStorage.removeItem(`smart-launch-check:${state}`);
  // The code is used once; it should not stay in the address bar or the history.
  window.history.replaceState(null, '', redirectUri());
  show('Exchanging the code for a token…');
  const token = await json(
    await fetch(saved.tokenEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: query.get('code') ?? '',
        redirect_uri: redirectUri(),
        client_id: saved.clientId,
        code_verifier: saved.verifier,
      }),
    }),
    'The token request',
  );
  if (!token.patient) throw new Error('The token came without a patient: the launch carried no patient context.');
  const headers = { authorization: `Bearer ${token.access_token}`, accept: 'application/fhir+json' };
  const patient = await json(
    await fetch(`${saved.iss}/Patient/${encodeURIComponent(token.patient)}`, { headers }),
    'Reading the patient',
  );
  const observations = await json(
    await fetch(`${saved.iss}/Observation?patient=${encodeURIComponent(token.patient)}&_summary=count`, { headers }),
    'Counting the observations',
  );
  addRow('Patient', `${nameOf(patient)} (Patient/${patient.id})`);
  addRow('Born', patient.birthDate ? readableDate(patient.birthDate) : 'not recorded');
  addRow('Encounter', token.encounter ? `Encounter/${token.encounter}` : 'none in this launch');
  addRow('Signed-in user', token.fhirUser ?? 'not given');
  addRow('Scopes granted', token.scope ?? '');
  addRow('Observations this app can read', String(observations.total ?? 0));
  addRow('Token valid for', `${Math.round((token.expires_in ?? 0) / 60)} minutes`);
  addRow('FHIR server', saved.iss);
  result.hidden = false;
  show('Launched: this app received the patient below from the chart.', 'done');
}

const run = query.has('code') || query.has('error') ? finishLaunch : startLaunch;
run().catch((error) => show(error instanceof Error ? error.message : String(error), 'error'));
