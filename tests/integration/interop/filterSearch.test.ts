import { randomUUID } from 'node:crypto';
import { getDataType, isDataTypeLoaded, MedplumClient, OperationOutcomeError } from '@medplum/core';
import type { Patient } from '@medplum/fhirtypes';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, http, issueText } from '../fhirClient';
import { registerProjectOwner } from '../accounts';

/** Issue 18: `_filter` in REST search and GraphQL list arguments, driven by @medplum/core. */
describe('_filter (REST and GraphQL) with @medplum/core', () => {
  let medplum: MedplumClient;
  let token: string;
  const family = `Filt${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    token = (await registerProjectOwner()).tokens.access_token;
    medplum = new MedplumClient({ baseUrl: baseUrl(), fetch: globalThis.fetch.bind(globalThis) });
    medplum.setAccessToken(token);
    for (const [given, birthDate, gender] of [
      ['Ann', '1980-05-01', 'female'],
      ['Bob', '1995-07-02', 'male'],
      ['Cy', '2010-01-03', 'male'],
    ]) {
      await medplum.createResource<Patient>({
        resourceType: 'Patient',
        name: [{ family, given: [given] }],
        birthDate,
        gender: gender as Patient['gender'],
      });
    }
  });

  const givenOf = (patients: Patient[]) => patients.map((p) => p.name?.[0].given?.[0]).sort();

  it('runs and-joined comparisons in REST search', async () => {
    const found = await medplum.searchResources('Patient', {
      _filter: `family eq ${family} and birthdate ge 1990-01-01 and gender ne female`,
    });
    expect(givenOf(found)).toEqual(['Bob', 'Cy']);
    const quoted = await medplum.searchResources('Patient', { _filter: `(family eq "${family}") and given sw A` });
    expect(givenOf(quoted)).toEqual(['Ann']);
    const contains = await medplum.searchResources('Patient', {
      _filter: `family co ${family.slice(2)} and birthdate lt 1990-01-01`,
    });
    expect(givenOf(contains)).toEqual(['Ann']);
  });

  it('explains what it cannot run instead of ignoring it', async () => {
    for (const [filter, text] of [
      [`family eq ${family} or gender eq male`, '"or" is not supported'],
      ['family eq', 'expected a value'],
      ['family zz x', 'expected an operator'],
      ['nosuchparam eq 1', 'Unknown search parameter "nosuchparam"'],
      ['family ne Smith', '"ne" is not supported for family'],
      ['(family eq x', 'unbalanced parentheses'],
    ]) {
      const answer = await http('GET', `fhir/R4/Patient?_filter=${encodeURIComponent(filter)}`, { token });
      expect(answer.status, filter).toBe(400);
      expect(issueText(answer.body), filter).toContain(text);
    }
    await expect(medplum.searchResources('Patient', { _filter: 'family eq' })).rejects.toBeInstanceOf(
      OperationOutcomeError,
    );
  });

  it('accepts _filter in GraphQL list arguments: requestSchema() loads a type', async () => {
    const list = await medplum.graphql(
      `{ PatientList(_filter: "family eq ${family} and given eq Cy") { id name { given } } }`,
    );
    expect(list.data.PatientList).toHaveLength(1);
    expect(list.data.PatientList[0].name[0].given).toEqual(['Cy']);
    expect(isDataTypeLoaded('Observation')).toBe(false);
    await medplum.requestSchema('Observation');
    expect(isDataTypeLoaded('Observation')).toBe(true);
    expect(getDataType('Observation').elements.status).toBeDefined();
  });
});
