import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, http } from '../../tests/integration/fhirClient';

/*
 * A reference to another server's resource ends in `Patient/{id}` like one to this server's: the
 * index gave it this server's Patient/{id} as its target, so every search by that patient found a
 * record about someone else.
 */

interface AnyResource {
  resourceType: string;
  id: string;
  [key: string]: unknown;
}
interface SearchBundle {
  entry?: { resource: AnyResource; search?: { mode: string } }[];
}

const marker = `foreign-reference-${randomUUID()}`;
let patientId = '';
let local = '';
let foreign = '';
let foreignUrl = '';

async function created(resource: Record<string, unknown>): Promise<string> {
  const answer = await http<AnyResource>('POST', `fhir/R4/${String(resource.resourceType)}`, { body: resource });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.id;
}

/** `Type/id` of every entry of the search's answer, matches and includes alike, sorted. */
async function found(query: string): Promise<string[]> {
  const answer = await http<SearchBundle>('GET', `fhir/R4/${query}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return (answer.body.entry ?? []).map((entry) => `${entry.resource.resourceType}/${entry.resource.id}`).sort();
}

const observation = (subject: string, kind: string) => ({
  resourceType: 'Observation',
  status: 'final',
  code: { text: `${marker}-${kind}` },
  subject: { reference: subject },
});

beforeAll(async () => {
  patientId = await created({ resourceType: 'Patient', name: [{ family: marker }] });
  foreignUrl = `http://other.example/fhir/Patient/${patientId}`;
  local = await created(observation(`Patient/${patientId}`, 'local'));
  foreign = await created(observation(foreignUrl, 'foreign'));
});

describe("a reference to another server's Patient/{id} is not this server's Patient/{id}", () => {
  it('is stored as written', async () => {
    const stored = await http<AnyResource>('GET', `fhir/R4/Observation/${foreign}`);
    expect(stored.body.subject).toEqual({ reference: foreignUrl });
  });

  it('is not found by the local reference, the bare id or a typed id', async () => {
    const only = [`Observation/${local}`];
    expect(await found(`Observation?subject=Patient/${patientId}`)).toEqual(only);
    expect(await found(`Observation?subject:Patient=${patientId}`)).toEqual(only);
    expect(await found(`Observation?patient=${patientId}`)).toEqual(only);
    expect(await found(`Observation?patient=Patient/${patientId}`)).toEqual(only);
  });

  it('is found by its whole URL, and only it', async () => {
    expect(await found(`Observation?subject=${encodeURIComponent(foreignUrl)}`)).toEqual([`Observation/${foreign}`]);
    expect(await found(`Observation?code:text=${marker}&subject=${encodeURIComponent(foreignUrl)}`)).toEqual([
      `Observation/${foreign}`,
    ]);
  });

  it("this server's own full URL is searched as the Type/id it is stored as", async () => {
    const own = `${baseUrl()}fhir/R4/Patient/${patientId}`;
    expect(await found(`Observation?subject=${encodeURIComponent(own)}`)).toEqual([`Observation/${local}`]);
    expect(await found(`Observation?code:text=${marker}&patient=${encodeURIComponent(own)}`)).toEqual([
      `Observation/${local}`,
    ]);
  });

  it('is not followed by chains, _has, _include or _revinclude', async () => {
    expect(await found(`Observation?subject:Patient.name=${marker}`)).toEqual([`Observation/${local}`]);
    expect(await found(`Patient?_has:Observation:subject:code:text=${marker}-local`)).toEqual([`Patient/${patientId}`]);
    expect(await found(`Patient?_has:Observation:subject:code:text=${marker}-foreign`)).toEqual([]);
    expect(await found(`Observation?_id=${foreign}&_include=Observation:subject`)).toEqual([`Observation/${foreign}`]);
    expect(await found(`Observation?_id=${local}&_include=Observation:subject`)).toEqual([
      `Observation/${local}`,
      `Patient/${patientId}`,
    ]);
    expect(await found(`Patient?_id=${patientId}&_revinclude=Observation:subject`)).toEqual([
      `Observation/${local}`,
      `Patient/${patientId}`,
    ]);
  });
});
