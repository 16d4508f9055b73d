import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for DoseSpot's RESTful API v2 and its single sign-on page, for tests (DoseSpot
 * cannot be reached from here). It checks every request against DoseSpot's published contract
 * (RESTful API guide §1.3 token, §1.6 SSO; the v2 swagger's api/patients and
 * api/notifications/counts), answers as DoseSpot does, and records what did not conform in
 * `violations`, so a test can assert there were none. Listens on 127.0.0.1 only.
 */

export interface DoseSpotTestServerOptions {
  clinicId: string;
  clinicKey: string;
  subscriptionKey: string;
  /** Clinician (user) ids DoseSpot knows, with the counts their notifications answer. */
  clinicians: Record<
    string,
    {
      PendingPrescriptionsCount: number;
      PendingRxChangeCount: number;
      RefillRequestsCount: number;
      TransactionErrorsCount: number;
    }
  >;
  /** A fixed loopback port (one the Hearth server lists in BOT_FETCH_ALLOWED_HOSTS); any free one by default. */
  port?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface DoseSpotTestServer {
  /** The DoseSpot site root, ending in '/' (what DOSESPOT_BASE_URL holds). */
  baseUrl: string;
  requests: RecordedRequest[];
  violations: string[];
  /** Patients added, by DoseSpot id. */
  patients: Map<number, Record<string, unknown>>;
  close(): Promise<void>;
}

const REQUIRED_PATIENT_FIELDS = [
  'FirstName',
  'LastName',
  'DateOfBirth',
  'Gender',
  'Address1',
  'City',
  'State',
  'ZipCode',
  'PrimaryPhone',
  'PrimaryPhoneType',
  'Active',
];
const PHONE_TYPES = ['Undefined', 'Beeper', 'Cell', 'Fax', 'Home', 'Work', 'Night', 'Primary'];
const MAX_LENGTHS: Record<string, number> = {
  FirstName: 35,
  MiddleName: 35,
  LastName: 35,
  Address1: 35,
  Address2: 35,
  City: 35,
  State: 50,
  ZipCode: 10,
  PrimaryPhone: 25,
  Email: 80,
  NonDoseSpotMedicalRecordNumber: 35,
};

/** base64(SHA-512(text)) without a trailing '==', as the SSO guide computes it (independently of the bots' code). */
function sha512Base64(text: string): string {
  const base64 = createHash('sha512').update(text, 'utf8').digest('base64');
  return base64.endsWith('==') ? base64.slice(0, -2) : base64;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

function resultError(response: ServerResponse, status: number, description: string): void {
  json(response, status, { Result: { ResultCode: 'ERROR', ResultDescription: description } });
}

export async function startDoseSpotTestServer(options: DoseSpotTestServerOptions): Promise<DoseSpotTestServer> {
  const requests: RecordedRequest[] = [];
  const violations: string[] = [];
  const patients = new Map<number, Record<string, unknown>>();
  const tokens = new Map<string, string>(); // access token → clinician id
  let nextPatientId = 1000;

  const violation = (response: ServerResponse, status: number, message: string) => {
    violations.push(message);
    resultError(response, status, message);
  };

  const patientProblems = (body: Record<string, unknown>): string[] => {
    const problems: string[] = [];
    for (const field of REQUIRED_PATIENT_FIELDS) {
      if (body[field] === undefined || body[field] === '') problems.push(`${field} is required`);
    }
    for (const [field, max] of Object.entries(MAX_LENGTHS)) {
      const value = body[field];
      if (value !== undefined && (typeof value !== 'string' || value.length > max || value !== value.trim())) {
        problems.push(`${field} must be a trimmed string of at most ${max} characters`);
      }
    }
    if (!['Male', 'Female', 'Unknown'].includes(body.Gender as string))
      problems.push('Gender must be Male, Female or Unknown');
    if (!PHONE_TYPES.includes(body.PrimaryPhoneType as string)) problems.push('PrimaryPhoneType is not a phone type');
    if (typeof body.Active !== 'boolean') problems.push('Active must be a boolean');
    if (typeof body.DateOfBirth === 'string' && Number.isNaN(Date.parse(body.DateOfBirth))) {
      problems.push('DateOfBirth must be a date');
    }
    if (typeof body.ZipCode === 'string' && !/^\d{5}(-?\d{4})?$/.test(body.ZipCode))
      problems.push('ZipCode must be 5 or 9 digits');
    if (typeof body.PrimaryPhone === 'string' && !/^\d{10}$/.test(body.PrimaryPhone.replace(/\D/g, ''))) {
      problems.push('PrimaryPhone must have a 3-digit area code and 7 digits');
    }
    return problems;
  };

  const authorized = (request: IncomingMessage, response: ServerResponse): string | undefined => {
    if (request.headers['subscription-key'] !== options.subscriptionKey) {
      violation(response, 401, `${request.method} ${request.url}: missing or wrong Subscription-Key header`);
      return undefined;
    }
    const match = /^Bearer (.+)$/.exec(request.headers.authorization ?? '');
    const clinician = match ? tokens.get(match[1]) : undefined;
    if (!clinician) {
      violation(response, 401, `${request.method} ${request.url}: missing or unknown Bearer token`);
      return undefined;
    }
    return clinician;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const body = await readBody(request);
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    requests.push({ method: request.method ?? '', path: url.pathname + url.search, headers: request.headers, body });
    const path = url.pathname;

    if (path === '/webapi/v2/connect/token') {
      if (request.method !== 'POST') return violation(response, 405, 'token: must be POST');
      if (request.headers['subscription-key'] !== options.subscriptionKey) {
        return violation(response, 401, 'token: missing or wrong Subscription-Key header');
      }
      if (!(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
        return violation(response, 400, 'token: body must be application/x-www-form-urlencoded');
      }
      const form = new URLSearchParams(body);
      const expected: Record<string, string> = {
        grant_type: 'password',
        client_id: options.clinicId,
        client_secret: options.clinicKey,
        password: options.clinicKey,
        scope: 'api',
      };
      for (const [key, value] of Object.entries(expected)) {
        if (form.get(key) !== value) return violation(response, 400, `token: ${key} is wrong`);
      }
      const clinician = form.get('username') ?? '';
      if (!options.clinicians[clinician]) {
        response.writeHead(400, { 'content-type': 'application/json' });
        return response.end(JSON.stringify({ error: 'invalid_grant', error_description: 'Unknown user' }));
      }
      const token = randomUUID();
      tokens.set(token, clinician);
      return json(response, 200, { access_token: token, token_type: 'Bearer', expires_in: 600 });
    }

    if (path === '/webapi/v2/api/patients' && request.method === 'POST') {
      if (!authorized(request, response)) return;
      const patient = JSON.parse(body || '{}') as Record<string, unknown>;
      const problems = patientProblems(patient);
      if (problems.length > 0) return violation(response, 400, `add patient: ${problems.join('; ')}`);
      const id = nextPatientId++;
      patients.set(id, patient);
      return json(response, 200, { Id: id, Result: { ResultCode: 'OK', ResultDescription: '' } });
    }

    const patientPath = /^\/webapi\/v2\/api\/patients\/(\d+)$/.exec(path);
    if (patientPath && request.method === 'PUT') {
      if (!authorized(request, response)) return;
      const id = Number(patientPath[1]);
      if (!patients.has(id)) return resultError(response, 404, `Patient ${id} not found`);
      const patient = JSON.parse(body || '{}') as Record<string, unknown>;
      const problems = patientProblems(patient);
      if (problems.length > 0) return violation(response, 400, `update patient: ${problems.join('; ')}`);
      patients.set(id, patient);
      return json(response, 200, { Result: { ResultCode: 'OK', ResultDescription: '' } });
    }

    if (path === '/webapi/v2/api/notifications/counts' && request.method === 'GET') {
      const clinician = authorized(request, response);
      if (!clinician) return;
      return json(response, 200, {
        ...options.clinicians[clinician],
        Result: { ResultCode: 'OK', ResultDescription: '' },
      });
    }

    if (path === '/LoginSingleSignOn.aspx' && request.method === 'GET') {
      const query = url.searchParams;
      const phraseLength = Number(query.get('SingleSignOnPhraseLength'));
      const code = query.get('SingleSignOnCode') ?? '';
      const userId = query.get('SingleSignOnUserId') ?? '';
      const phrase = code.slice(0, phraseLength);
      const problems: string[] = [];
      if (query.get('SingleSignOnClinicId') !== options.clinicId) problems.push('wrong SingleSignOnClinicId');
      if (phraseLength !== 32 || !/^[A-Za-z0-9]{32}$/.test(phrase))
        problems.push('the phrase must be 32 alphanumerics');
      if (code !== phrase + sha512Base64(phrase + options.clinicKey)) problems.push('SingleSignOnCode does not verify');
      if (query.get('SingleSignOnUserIdVerify') !== sha512Base64(userId + phrase.slice(0, 22) + options.clinicKey)) {
        problems.push('SingleSignOnUserIdVerify does not verify');
      }
      if (!options.clinicians[userId]) problems.push('unknown clinician');
      const patientId = query.get('PatientId');
      if (patientId && !patients.has(Number(patientId))) problems.push('Clinician does not have access to the patient');
      if (!patientId && query.get('RefillsErrors') !== '1') problems.push('PatientId or RefillsErrors=1 is required');
      if (problems.length > 0) {
        violations.push(`SSO: ${problems.join('; ')}`);
        response.writeHead(401, { 'content-type': 'text/html; charset=utf-8' });
        return response.end(
          `<!doctype html><title>SSO error</title><h1>Incorrect SSO calculations</h1><p>${problems.join('; ')}</p>`,
        );
      }
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return response.end(
        `<!doctype html><html lang="en"><title>DoseSpot test</title><main><h1>DoseSpot test server</h1><p>Signed in as clinician ${userId}${patientId ? ` on patient ${patientId}` : ' (notifications)'}.</p></main></html>`,
      );
    }

    violation(response, 404, `${request.method} ${path}: not a DoseSpot endpoint`);
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      violations.push(`server error: ${String(error)}`);
      if (!response.headersSent) resultError(response, 500, 'test server error');
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/`,
    requests,
    violations,
    patients,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
