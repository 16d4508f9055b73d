import type { ProjectSetting } from '@medplum/fhirtypes';
import { projectSettingNameProblem } from '../../data-provider/rules';
import { errors } from '../fhir/fhirError';

const valueFields = ['valueString', 'valueBoolean', 'valueDecimal', 'valueInteger'] as const;
const maxSettings = 200;

/**
 * The body of `POST /admin/projects/{id}/secrets`: an array of ProjectSettings (`name` and exactly
 * one `value[x]`), names unique. 400 naming the entry otherwise.
 */
export function parseProjectSettings(body: unknown): ProjectSetting[] {
  if (!Array.isArray(body)) throw errors.invalid('Expected a JSON array of { name, valueString }', 'secret');
  if (body.length > maxSettings) throw errors.invalid(`At most ${maxSettings} secrets`, 'secret');
  const names = new Set<string>();
  return body.map((entry: unknown, index) => {
    const path = `secret[${index}]`;
    if (typeof entry !== 'object' || entry === null) throw errors.invalid('Expected an object', path);
    const fields = entry as Record<string, unknown>;
    const name = fields.name;
    const problem =
      typeof name === 'string'
        ? projectSettingNameProblem(name, [...names])
        : 'Name must be 1–100 letters, digits, _ . or -';
    if (problem || typeof name !== 'string') throw errors.invalid(problem ?? 'Missing name', `${path}.name`);
    names.add(name);
    const present = valueFields.filter((field) => fields[field] !== undefined);
    if (present.length !== 1) throw errors.invalid('Exactly one value[x] is required', `${path}.value[x]`);
    const field = present[0];
    const value = fields[field];
    const expected = field === 'valueString' ? 'string' : field === 'valueBoolean' ? 'boolean' : 'number';
    if (typeof value !== expected || (field === 'valueInteger' && !Number.isInteger(value))) {
      throw errors.invalid(`${field} must be a ${field === 'valueInteger' ? 'integer' : expected}`, `${path}.${field}`);
    }
    return { name, [field]: value } as ProjectSetting;
  });
}
