import { apiRoot, type DoseSpotSettings } from './dosespotSettings';

/** DoseSpot's answer status on every call (`Result.ResultCode` is 'OK' or 'ERROR'). */
interface DoseSpotResult {
  Result?: { ResultCode?: string; ResultDescription?: string };
}

export class DoseSpotError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'DoseSpotError';
  }
}

async function readAnswer<T>(response: Response, what: string): Promise<T> {
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    throw new DoseSpotError(`DoseSpot ${what}: HTTP ${response.status}, not JSON`, response.status);
  }
  if (!response.ok) {
    const described =
      (body as DoseSpotResult).Result?.ResultDescription ??
      (body as { error_description?: string; error?: string }).error_description ??
      (body as { error?: string }).error;
    throw new DoseSpotError(
      `DoseSpot ${what}: HTTP ${response.status}${described ? `: ${described}` : ''}`,
      response.status,
    );
  }
  const result = (body as DoseSpotResult).Result;
  if (result?.ResultCode && result.ResultCode.toUpperCase() !== 'OK') {
    throw new DoseSpotError(`DoseSpot ${what}: ${result.ResultDescription ?? result.ResultCode}`);
  }
  return body as T;
}

/**
 * A signed-in connection to DoseSpot's RESTful API v2 for one clinician: the token comes from
 * POST connect/token (password grant: clinic id and key as the client, the clinician's user id and
 * the clinic key as the user, scope api), and every call carries the Subscription-Key header and
 * the token as a Bearer.
 */
export class DoseSpotApi {
  private constructor(
    private readonly settings: DoseSpotSettings,
    private readonly accessToken: string,
  ) {}

  static async signIn(settings: DoseSpotSettings, clinicianId: string): Promise<DoseSpotApi> {
    const form = new URLSearchParams({
      grant_type: 'password',
      client_id: settings.clinicId,
      client_secret: settings.clinicKey,
      username: clinicianId,
      password: settings.clinicKey,
      scope: 'api',
    });
    const response = await fetch(`${apiRoot(settings)}connect/token`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
        'Subscription-Key': settings.subscriptionKey,
      },
      body: form.toString(),
    });
    const token = await readAnswer<{ access_token?: string }>(response, 'sign-in');
    if (!token.access_token) throw new DoseSpotError('DoseSpot sign-in: no access_token in the answer');
    return new DoseSpotApi(settings, token.access_token);
  }

  private async call<T>(method: 'GET' | 'POST' | 'PUT', path: string, what: string, body?: unknown): Promise<T> {
    const response = await fetch(`${apiRoot(this.settings)}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${this.accessToken}`,
        'Subscription-Key': this.settings.subscriptionKey,
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return readAnswer<T>(response, what);
  }

  /** POST api/patients: adds the patient, answers DoseSpot's patient id. */
  async addPatient(patient: object): Promise<number> {
    const answer = await this.call<{ Id?: number }>('POST', 'api/patients', 'add patient', patient);
    if (typeof answer.Id !== 'number') throw new DoseSpotError('DoseSpot add patient: no Id in the answer');
    return answer.Id;
  }

  /** PUT api/patients/{id}: replaces the patient's demographics. */
  async updatePatient(doseSpotPatientId: number, patient: object): Promise<void> {
    await this.call('PUT', `api/patients/${encodeURIComponent(String(doseSpotPatientId))}`, 'update patient', patient);
  }

  /** GET api/notifications/counts: the clinician's pending work at this clinic. */
  notificationCounts(): Promise<Record<string, unknown>> {
    return this.call('GET', 'api/notifications/counts', 'notification counts');
  }
}
