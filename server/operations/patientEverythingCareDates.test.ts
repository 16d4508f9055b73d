import { beforeAll, describe, expect, it } from 'vitest';
import { http, issueExpressions } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { inviteMember } from '../admin/projectMembers.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/**
 * `Patient/{id}/$everything?start=…&end=…` (OperationDefinition Patient-everything): the range is
 * about dates of care, not of the record. A resource whose type has a clinical date (`date`) is in
 * when that date overlaps the range; a type without one (Patient, Condition, …) is left in.
 */
describe('Patient/$everything start and end', () => {
  let token: string;
  let projectId: string;
  const ids: Record<string, string> = {};
  const create = async (body: Record<string, unknown>): Promise<string> => {
    const answer = await http<any>('POST', `fhir/R4/${body.resourceType as string}`, { token, body });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.id as string;
  };
  const everything = async (query: string, as = token): Promise<string[]> => {
    const answer = await http<any>('GET', `fhir/R4/Patient/${ids.patient}/$everything?${query}`, { token: as });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return (answer.body.entry ?? []).map((e: any) => `${e.resource.resourceType}/${e.resource.id}`).sort();
  };

  beforeAll(async () => {
    const owner = await registerProjectOwner('Everything care dates');
    token = owner.tokens.access_token;
    projectId = owner.projectId;
    ids.patient = await create({ resourceType: 'Patient', name: [{ family: 'Dates' }] });
    const subject = { reference: `Patient/${ids.patient}` };
    const observation = (effectiveDateTime: string | undefined, status = 'final') => ({
      resourceType: 'Observation',
      status,
      code: { text: 'Weight' },
      subject,
      ...(effectiveDateTime ? { effectiveDateTime } : {}),
    });
    ids.obs2020 = await create(observation('2020-03-10T09:00:00Z'));
    ids.obs2020prelim = await create(observation('2020-05-10T09:00:00Z', 'preliminary'));
    ids.obs2023 = await create(observation('2023-06-01'));
    ids.undated = await create(observation(undefined));
    ids.encounter = await create({
      resourceType: 'Encounter',
      status: 'finished',
      class: { code: 'AMB' },
      subject,
      period: { start: '2019-12-01T08:00:00Z', end: '2020-01-15T08:00:00Z' },
    });
    ids.condition = await create({ resourceType: 'Condition', subject, code: { text: 'Asthma' } });
  });

  const key = (name: string) => {
    const type = name.startsWith('obs') || name === 'undated' ? 'Observation' : name[0].toUpperCase() + name.slice(1);
    return `${type}/${ids[name]}`;
  };
  const keys = (...names: string[]) => names.map(key).sort();

  it('keeps what overlaps start–end, and the types that have no care date', async () => {
    expect(await everything('start=2020-01-01&end=2020-12-31')).toEqual(
      keys('patient', 'obs2020', 'obs2020prelim', 'encounter', 'condition'),
    );
  });

  it('takes either bound alone: start keeps what ends after it, end what begins by it', async () => {
    expect(await everything('start=2021')).toEqual(keys('patient', 'obs2023', 'condition'));
    expect(await everything('end=2019-12-31')).toEqual(keys('patient', 'encounter', 'condition'));
    // Without either, everything, the undated Observation too.
    expect(await everything('')).toEqual(
      keys('patient', 'obs2020', 'obs2020prelim', 'obs2023', 'undated', 'encounter', 'condition'),
    );
  });

  it('combines with _type and keeps start and end in the paging links', async () => {
    expect(await everything('start=2020-01-01&end=2020-12-31&_type=Observation')).toEqual(
      keys('patient', 'obs2020', 'obs2020prelim'),
    );
    const page = await http<any>(
      'GET',
      `fhir/R4/Patient/${ids.patient}/$everything?start=2020-01-01&end=2020-12-31&_count=2`,
      { token },
    );
    const next = page.body.link.find((link: any) => link.relation === 'next').url as string;
    expect(next).toContain('start=2020-01-01');
    expect(next).toContain('end=2020-12-31');
  });

  it('still applies the access policy per type', async () => {
    const member = await inviteMember(token, projectId, {
      policy: {
        resource: [{ resourceType: 'Patient' }, { resourceType: 'Observation', criteria: 'Observation?status=final' }],
      },
    });
    expect(await everything('start=2020-01-01&end=2020-12-31', member.token)).toEqual(keys('patient', 'obs2020'));
  });

  it('refuses a start or end that is not a date', async () => {
    for (const name of ['start', 'end']) {
      const answer = await http<any>('GET', `fhir/R4/Patient/${ids.patient}/$everything?${name}=yesterday`, {
        token,
      });
      expect(answer.status).toBe(400);
      expect(issueExpressions(answer.body)).toEqual([name]);
    }
  });
});
