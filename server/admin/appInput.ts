import { launchUriProblem, redirectUriProblem } from '../../data-provider/rules';
import { errors } from '../fhir/fhirError';

export interface AppInput {
  name: string;
  description?: string;
  runtimeVersion?: string;
  redirectUri?: string;
  launchUri?: string;
}

function optionalString(body: Record<string, unknown>, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || value.length > 1000) throw errors.invalid(`${field} must be a string`, field);
  return value;
}

/** The body of `POST /admin/projects/{id}/bot` and `/client`: `name` required, the rest optional. */
export function parseAppInput(body: unknown, kind: 'bot' | 'client'): AppInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw errors.invalid('Expected a JSON object { name, description? }', 'name');
  }
  const fields = body as Record<string, unknown>;
  const name = optionalString(fields, 'name');
  if (!name || name.trim() === '') throw errors.invalid('Missing name', 'name');
  const description = optionalString(fields, 'description');
  if (kind === 'bot') {
    const runtimeVersion = optionalString(fields, 'runtimeVersion');
    if (runtimeVersion && runtimeVersion !== 'awslambda' && runtimeVersion !== 'vmcontext') {
      throw errors.invalid('runtimeVersion must be awslambda or vmcontext', 'runtimeVersion');
    }
    return { name, ...(description ? { description } : {}), ...(runtimeVersion ? { runtimeVersion } : {}) };
  }
  const redirectUri = optionalString(fields, 'redirectUri');
  // The rule of every ClientApplication write: https, or http on loopback only (codes in clear otherwise).
  const problem = redirectUri ? redirectUriProblem(redirectUri) : undefined;
  if (problem) throw errors.invalid(problem, 'redirectUri');
  // Where the chart's "Apps" menu sends a clinician's browser: the same rule.
  const launchUri = optionalString(fields, 'launchUri');
  const launchProblem = launchUri ? launchUriProblem(launchUri) : undefined;
  if (launchProblem) throw errors.invalid(launchProblem, 'launchUri');
  return {
    name,
    ...(description ? { description } : {}),
    ...(redirectUri ? { redirectUri } : {}),
    ...(launchUri ? { launchUri } : {}),
  };
}
