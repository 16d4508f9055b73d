import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CodeSystem, Parameters, ValueSet } from '@medplum/fhirtypes';
import { readDefinitionBundle } from '../definitions/definitionFiles';
import { http, issueText } from '../../tests/integration/fhirClient';

type Expanded = ValueSet & { expansion: NonNullable<ValueSet['expansion']> };

const genderSystem = (readDefinitionBundle('valuesets.json') as CodeSystem[]).find(
  (r) => r.resourceType === 'CodeSystem' && r.url === 'http://hl7.org/fhir/administrative-gender',
)!;

async function expand(query: string): Promise<Expanded> {
  const answer = await http<Expanded>('GET', `fhir/R4/ValueSet/$expand?${query}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

const param = (p: Parameters, name: string) => p.parameter?.find((x) => x.name === name);

describe('ValueSet/$expand', () => {
  it('expands a whole code system from the loaded definitions', async () => {
    const vs = await expand('url=http://hl7.org/fhir/ValueSet/administrative-gender');
    const expected = genderSystem.concept!.map((c) => ({ system: genderSystem.url, code: c.code, display: c.display }));
    expect(vs.expansion.total).toBe(expected.length);
    expect(vs.expansion.contains).toEqual(expected);
  });

  it('filters on code and display, and pages with count and offset', async () => {
    const fem = await expand('url=http://hl7.org/fhir/ValueSet/administrative-gender&filter=fem');
    expect(fem.expansion.contains?.map((c) => c.code)).toEqual(['female']);
    const page = await expand('url=http://hl7.org/fhir/ValueSet/administrative-gender&count=2&offset=1');
    expect(page.expansion.total).toBe(genderSystem.concept!.length);
    expect(page.expansion.offset).toBe(1);
    expect(page.expansion.contains?.map((c) => c.code)).toEqual(genderSystem.concept!.slice(1, 3).map((c) => c.code));
  });

  it('follows is-a and descendent-of filters, exclusions and nested value sets of an implementer', async () => {
    const system = `http://example.org/cs/${randomUUID()}`;
    await http('POST', 'fhir/R4/CodeSystem', {
      body: {
        resourceType: 'CodeSystem',
        url: system,
        status: 'active',
        content: 'complete',
        concept: [
          {
            code: 'animal',
            display: 'Animal',
            concept: [
              { code: 'dog', display: 'Dog', concept: [{ code: 'puppy', display: 'Puppy' }] },
              { code: 'cat', display: 'Cat' },
            ],
          },
          { code: 'plant', display: 'Plant' },
        ],
      },
    });
    const base = `http://example.org/vs/${randomUUID()}`;
    const create = (url: string, compose: ValueSet['compose']) =>
      http('POST', 'fhir/R4/ValueSet', { body: { resourceType: 'ValueSet', url, status: 'active', compose } });
    await create(`${base}/animals`, {
      include: [{ system, filter: [{ property: 'concept', op: 'is-a', value: 'animal' }] }],
      exclude: [{ system, concept: [{ code: 'cat' }] }],
    });
    await create(`${base}/below-dog`, {
      include: [{ system, filter: [{ property: 'concept', op: 'descendent-of', value: 'dog' }] }],
    });
    await create(`${base}/nested`, {
      include: [{ valueSet: [`${base}/below-dog`] }, { system, concept: [{ code: 'plant' }] }],
    });

    expect((await expand(`url=${base}/animals`)).expansion.contains?.map((c) => c.code)).toEqual([
      'animal',
      'dog',
      'puppy',
    ]);
    expect((await expand(`url=${base}/below-dog`)).expansion.contains?.map((c) => c.code)).toEqual(['puppy']);
    expect((await expand(`url=${base}/nested`)).expansion.contains).toEqual([
      { system, code: 'puppy', display: 'Puppy' },
      { system, code: 'plant', display: 'Plant' },
    ]);
  });

  it('expands what it can and warns about code systems it does not hold', async () => {
    const vs = await expand('url=http://hl7.org/fhir/ValueSet/immunization-status-reason');
    expect(vs.expansion.contains?.map((c) => c.code)).toEqual(['IMMUNE', 'MEDPREC', 'OSTOCK', 'PATOBJ']);
    expect(vs.expansion.parameter).toContainEqual({
      name: 'warning',
      valueString: 'the code system http://snomed.info/sct is not available on this server',
    });
    const nothing = await http('GET', 'fhir/R4/ValueSet/$expand?url=http://hl7.org/fhir/ValueSet/media-view');
    expect(nothing.status).toBe(400);
    expect(issueText(nothing.body)).toContain('http://snomed.info/sct is not available');
  });

  it('answers 404 for an unknown ValueSet and 400 without url', async () => {
    const unknown = await http('GET', 'fhir/R4/ValueSet/$expand?url=http://example.org/nope');
    expect(unknown.status).toBe(404);
    expect(issueText(unknown.body)).toBe('ValueSet not found: http://example.org/nope');
    expect((await http('GET', 'fhir/R4/ValueSet/$expand')).status).toBe(400);
    expect(
      (await http('GET', 'fhir/R4/ValueSet/$expand?url=http://hl7.org/fhir/ValueSet/administrative-gender&count=x'))
        .status,
    ).toBe(400);
  });

  it('expands an inline ValueSet by POST and a stored one by id', async () => {
    const answer = await http<Expanded>('POST', 'fhir/R4/ValueSet/$expand', {
      body: {
        resourceType: 'Parameters',
        parameter: [
          {
            name: 'valueSet',
            resource: {
              resourceType: 'ValueSet',
              status: 'active',
              compose: {
                include: [{ system: 'http://hl7.org/fhir/administrative-gender', concept: [{ code: 'other' }] }],
              },
            },
          },
        ],
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.expansion.contains).toEqual([
      { system: 'http://hl7.org/fhir/administrative-gender', code: 'other', display: 'Other' },
    ]);
    const byId = await http<Expanded>('GET', 'fhir/R4/ValueSet/administrative-gender/$expand?filter=male');
    expect(byId.status).toBe(200);
    expect(byId.body.expansion.contains?.map((c) => c.code)).toEqual(['male']);
  });
});

describe('CodeSystem/$lookup and ValueSet/$validate-code', () => {
  it('looks up a code', async () => {
    const answer = await http<Parameters>(
      'GET',
      'fhir/R4/CodeSystem/$lookup?system=http://hl7.org/fhir/administrative-gender&code=female',
    );
    expect(answer.status).toBe(200);
    expect(param(answer.body, 'display')?.valueString).toBe('Female');
    expect(param(answer.body, 'name')?.valueString).toBe(genderSystem.name);
    const missing = await http(
      'GET',
      'fhir/R4/CodeSystem/$lookup?system=http://hl7.org/fhir/administrative-gender&code=robot',
    );
    expect(missing.status).toBe(404);
    expect(issueText(missing.body)).toBe('Code "robot" not found in http://hl7.org/fhir/administrative-gender');
    expect((await http('GET', 'fhir/R4/CodeSystem/$lookup?system=http://example.org/none&code=x')).status).toBe(404);
    expect(
      (await http('GET', 'fhir/R4/CodeSystem/$lookup?system=http://hl7.org/fhir/administrative-gender')).status,
    ).toBe(400);
  });

  it('validates codes against a value set', async () => {
    const url = 'url=http://hl7.org/fhir/ValueSet/administrative-gender';
    const ok = await http<Parameters>(
      'GET',
      `fhir/R4/ValueSet/$validate-code?${url}&system=http://hl7.org/fhir/administrative-gender&code=male`,
    );
    expect(param(ok.body, 'result')?.valueBoolean).toBe(true);
    expect(param(ok.body, 'display')?.valueString).toBe('Male');
    const wrong = await http<Parameters>('GET', `fhir/R4/ValueSet/$validate-code?${url}&code=robot`);
    expect(param(wrong.body, 'result')?.valueBoolean).toBe(false);
    expect(param(wrong.body, 'message')?.valueString).toContain('"robot" is not in the value set');
    const display = await http<Parameters>('GET', `fhir/R4/ValueSet/$validate-code?${url}&code=male&display=Man`);
    expect(param(display.body, 'result')?.valueBoolean).toBe(true);
    expect(param(display.body, 'message')?.valueString).toBe('The display "Man" differs from "Male"');
  });
});

describe('CodeSystem/$subsumes', () => {
  const system = `http://example.org/cs/${randomUUID()}`;
  let id = '';
  const outcome = (p: Parameters) => param(p, 'outcome')?.valueCode;

  it('answers how code A relates to code B, by system, by Codings and on the stored CodeSystem', async () => {
    const created = await http<CodeSystem>('POST', 'fhir/R4/CodeSystem', {
      body: {
        resourceType: 'CodeSystem',
        url: system,
        status: 'active',
        content: 'complete',
        hierarchyMeaning: 'is-a',
        concept: [
          { code: 'animal', concept: [{ code: 'dog', concept: [{ code: 'puppy' }] }, { code: 'cat' }] },
          { code: 'plant' },
        ],
      },
    });
    expect(created.status).toBe(201);
    id = created.body.id as string;
    const ask = async (codeA: string, codeB: string) => {
      const answer = await http<Parameters>(
        'GET',
        `fhir/R4/CodeSystem/$subsumes?system=${system}&codeA=${codeA}&codeB=${codeB}`,
      );
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return outcome(answer.body);
    };
    expect(await ask('animal', 'puppy')).toBe('subsumes');
    expect(await ask('puppy', 'animal')).toBe('subsumed-by');
    expect(await ask('dog', 'cat')).toBe('not-subsumed');
    expect(await ask('cat', 'cat')).toBe('equivalent');

    const byCodings = await http<Parameters>('POST', 'fhir/R4/CodeSystem/$subsumes', {
      body: {
        resourceType: 'Parameters',
        parameter: [
          { name: 'codingA', valueCoding: { system, code: 'dog' } },
          { name: 'codingB', valueCoding: { system, code: 'puppy' } },
        ],
      },
    });
    expect(byCodings.status, JSON.stringify(byCodings.body)).toBe(200);
    expect(outcome(byCodings.body)).toBe('subsumes');

    const onInstance = await http<Parameters>('GET', `fhir/R4/CodeSystem/${id}/$subsumes?codeA=plant&codeB=dog`);
    expect(onInstance.status).toBe(200);
    expect(outcome(onInstance.body)).toBe('not-subsumed');

    // The FHIR specification's own CodeSystems answer too (loaded definitions).
    const gender = await http<Parameters>(
      'GET',
      'fhir/R4/CodeSystem/$subsumes?system=http://hl7.org/fhir/administrative-gender&codeA=female&codeB=male',
    );
    expect(outcome(gender.body)).toBe('not-subsumed');
  });

  it('says what is missing or wrong, with the parameter', async () => {
    const missing = await http('GET', `fhir/R4/CodeSystem/$subsumes?system=${system}&codeA=dog`);
    expect(missing.status).toBe(400);
    expect(issueText(missing.body)).toBe('Missing codeB (or codingB)');
    const noSystem = await http('GET', 'fhir/R4/CodeSystem/$subsumes?codeA=dog&codeB=cat');
    expect(noSystem.status).toBe(400);
    expect(issueText(noSystem.body)).toBe('Missing system: name the CodeSystem (system=…)');
    const unknown = await http('GET', `fhir/R4/CodeSystem/$subsumes?system=${system}&codeA=dog&codeB=robot`);
    expect(unknown.status).toBe(404);
    expect(issueText(unknown.body)).toBe(`Code "robot" (codeB) not found in ${system}`);
    const otherSystem = await http('POST', 'fhir/R4/CodeSystem/$subsumes', {
      body: {
        resourceType: 'Parameters',
        parameter: [
          { name: 'system', valueUri: system },
          { name: 'codingA', valueCoding: { system: 'http://loinc.org', code: 'dog' } },
          { name: 'codeB', valueCode: 'cat' },
        ],
      },
    });
    expect(otherSystem.status).toBe(400);
    expect(issueText(otherSystem.body)).toBe(`codingA is from http://loinc.org, not from ${system}`);
    const nowhere = await http('GET', 'fhir/R4/CodeSystem/$subsumes?system=http://example.org/none&codeA=a&codeB=b');
    expect(nowhere.status).toBe(404);
  });

  it('refuses a hierarchy that is not is-a', async () => {
    const partOf = `http://example.org/cs/${randomUUID()}`;
    await http('POST', 'fhir/R4/CodeSystem', {
      body: {
        resourceType: 'CodeSystem',
        url: partOf,
        status: 'active',
        content: 'complete',
        hierarchyMeaning: 'part-of',
        concept: [{ code: 'body', concept: [{ code: 'arm' }] }],
      },
    });
    const answer = await http('GET', `fhir/R4/CodeSystem/$subsumes?system=${partOf}&codeA=body&codeB=arm`);
    expect(answer.status).toBe(400);
    expect(issueText(answer.body)).toContain('means "part-of", not "is-a"');
  });
});
