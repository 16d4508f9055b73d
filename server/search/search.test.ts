import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { http, issueText } from '../../tests/integration/fhirClient';

/* Expectations are computed from the fixture's JSON, independently of the server's index. */

interface Coding {
  system?: string;
  code?: string;
  display?: string;
}
interface AnyResource {
  resourceType: string;
  id: string;
  [key: string]: unknown;
}
interface SearchBundle {
  total?: number;
  entry?: { resource: AnyResource; search: { mode: string } }[];
  link: { relation: string; url: string }[];
}

const fixture = join(__dirname, '../../tests/fixtures/synthea/Malcolm_Dach_281f4a03-57e9-4b22-a322-68890ff22172.json');
const source = JSON.parse(readFileSync(fixture, 'utf8')) as { entry: { fullUrl: string; resource: AnyResource }[] };
const family = `Searchy${randomUUID().slice(0, 8)}`;
const of = (type: string) => source.entry.map((e) => e.resource).filter((r) => r.resourceType === type);
const codings = (r: AnyResource) => ((r.code as { coding?: Coding[] } | undefined)?.coding ?? []) as Coding[];
const hasCode = (r: AnyResource, system: string, code: string) =>
  codings(r).some((c) => c.system === system && c.code === code);
const effective = (r: AnyResource) => Date.parse(r.effectiveDateTime as string);

let patientId = '';

async function search(query: string): Promise<SearchBundle> {
  const answer = await http<SearchBundle>('GET', `fhir/R4/${query}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

async function total(query: string): Promise<number> {
  const bundle = await search(`${query}${query.includes('?') ? '&' : '?'}_total=accurate&_count=0`);
  return bundle.total as number;
}

beforeAll(async () => {
  const bundle = structuredClone(source);
  const patient = bundle.entry.find((e) => e.resource.resourceType === 'Patient')!.resource;
  (patient.name as { family: string }[])[0].family = family;
  const answer = await http<{ entry: { resource: AnyResource }[] }>('POST', 'fhir/R4', {
    body: { ...bundle, resourceType: 'Bundle', type: 'transaction' },
  });
  expect(answer.status).toBe(200);
  patientId = answer.body.entry.find((e) => e.resource.resourceType === 'Patient')!.resource.id;
});

// The most frequent Observation code of the fixture, to test with.
const observations = of('Observation');
const counts = new Map<string, number>();
for (const o of observations)
  for (const c of codings(o)) counts.set(`${c.system}|${c.code}`, (counts.get(`${c.system}|${c.code}`) ?? 0) + 1);
const [topCode] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
const [topSystem, topValue] = topCode.split('|');
const withTopCode = observations.filter((o) => hasCode(o, topSystem, topValue));

describe('token parameters', () => {
  it('matches system|code, code alone, system| and |code', async () => {
    const subject = `subject=Patient/${patientId}`;
    expect(await total(`Observation?${subject}&code=${topSystem}|${topValue}`)).toBe(withTopCode.length);
    expect(await total(`Observation?${subject}&code=${topValue}`)).toBe(
      observations.filter((o) => codings(o).some((c) => c.code === topValue)).length,
    );
    expect(await total(`Observation?${subject}&code=${topSystem}|`)).toBe(
      observations.filter((o) => codings(o).some((c) => c.system === topSystem)).length,
    );
    expect(await total(`Observation?${subject}&code=|${topValue}`)).toBe(0);
  });

  it('supports :not, :text, :missing and OR across commas', async () => {
    const subject = `subject=Patient/${patientId}`;
    expect(await total(`Observation?${subject}&code:not=${topSystem}|${topValue}`)).toBe(
      observations.length - withTopCode.length,
    );
    const display = codings(withTopCode[0])[0].display as string;
    const byText = observations.filter((o) =>
      codings(o).some((c) => c.display?.toLowerCase().startsWith(display.slice(0, 5).toLowerCase())),
    ).length;
    expect(
      await total(`Observation?${subject}&code:text=${encodeURIComponent(display.slice(0, 5))}`),
    ).toBeGreaterThanOrEqual(byText);
    const withValue = observations.filter((o) => o.valueQuantity !== undefined).length;
    expect(await total(`Observation?${subject}&value-quantity:missing=false`)).toBe(withValue);
    expect(await total(`Observation?${subject}&value-quantity:missing=true`)).toBe(observations.length - withValue);
    const [second] = [...counts.keys()].filter((k) => k !== topCode);
    const either = observations.filter((o) =>
      codings(o).some((c) => `${c.system}|${c.code}` === topCode || `${c.system}|${c.code}` === second),
    ).length;
    expect(await total(`Observation?${subject}&code=${topCode},${second}`)).toBe(either);
  });

  it('searches _tag on meta', async () => {
    const tag = randomUUID();
    await http('POST', 'fhir/R4/Basic', {
      body: { resourceType: 'Basic', code: { text: 'x' }, meta: { tag: [{ system: 'urn:test', code: tag }] } },
    });
    expect(await total(`Basic?_tag=urn:test|${tag}`)).toBe(1);
    expect(await total(`Basic?_tag=urn:other|${tag}`)).toBe(0);
  });
});

describe('date parameters with prefixes', () => {
  const dates = withTopCode.map(effective).sort((a, b) => a - b);
  const middle = new Date(dates[Math.floor(dates.length / 2)]);
  const day = middle.toISOString().slice(0, 10);
  const dayStart = Date.parse(`${day}T00:00:00Z`);
  const dayEnd = dayStart + 86_400_000;
  const base = () => `Observation?subject=Patient/${patientId}&code=${topSystem}|${topValue}`;

  it('eq, ne, ge, gt, le, lt, sa, eb on a day', async () => {
    const onDay = dates.filter((d) => d >= dayStart && d < dayEnd).length;
    expect(await total(`${base()}&date=${day}`)).toBe(onDay);
    expect(await total(`${base()}&date=eq${day}`)).toBe(onDay);
    expect(await total(`${base()}&date=ne${day}`)).toBe(dates.length - onDay);
    expect(await total(`${base()}&date=ge${day}`)).toBe(dates.filter((d) => d >= dayStart).length);
    expect(await total(`${base()}&date=gt${day}`)).toBe(dates.filter((d) => d >= dayEnd).length);
    expect(await total(`${base()}&date=lt${day}`)).toBe(dates.filter((d) => d < dayStart).length);
    expect(await total(`${base()}&date=le${day}`)).toBe(dates.filter((d) => d < dayEnd).length);
    expect(await total(`${base()}&date=sa${day}`)).toBe(dates.filter((d) => d >= dayEnd).length);
    expect(await total(`${base()}&date=eb${day}`)).toBe(dates.filter((d) => d < dayStart).length);
  });

  it('ANDs repeated parameters into a range, and covers a year by its precision', async () => {
    const year = middle.getUTCFullYear();
    const inYear = dates.filter((d) => new Date(d).getUTCFullYear() === year).length;
    expect(await total(`${base()}&date=${year}`)).toBe(inYear);
    expect(await total(`${base()}&date=ge${year}-01-01&date=lt${year + 1}-01-01`)).toBe(inYear);
    expect(await total(`${base()}&date=gt${year - 1}&date=le${year}`)).toBe(inYear);
    expect(await total(`${base()}&date=ge${day}&date=le${day}`)).toBe(
      dates.filter((d) => d >= dayStart && d < dayEnd).length,
    );
    // An inverted range is empty, not an error.
    expect(await total(`${base()}&date=ge${year + 1}-01-01&date=lt${year}-01-01`)).toBe(0);
    // Open-ended periods: a Period without an end overlaps every later range.
    const start = `${year}-03-04T05:06:07Z`;
    const open = await http<AnyResource>('POST', 'fhir/R4/Encounter', {
      body: { resourceType: 'Encounter', status: 'in-progress', class: { code: 'AMB' }, period: { start } },
    });
    const encounters = `Encounter?_id=${open.body.id}`;
    expect(await total(`${encounters}&date=ge2099-01-01&date=lt2099-02-01`)).toBe(1);
    expect(await total(`${encounters}&date=ge${year - 2}-01-01&date=lt${year}-01-01`)).toBe(0);
  });

  it('finds periods of a few hours and of several days alike in a merged range', async () => {
    const encounter = async (start: string, end: string) =>
      (
        await http<AnyResource>('POST', 'fhir/R4/Encounter', {
          body: { resourceType: 'Encounter', status: 'finished', class: { code: 'AMB' }, period: { start, end } },
        })
      ).body.id as string;
    // Short spans are found by where they start (from a day before the range), long ones by the GiST.
    const overnight = await encounter('2031-02-28T22:00:00Z', '2031-03-01T02:00:00Z');
    const threeDays = await encounter('2031-02-27T00:00:00Z', '2031-03-02T00:00:00Z');
    const dayBefore = await encounter('2031-02-28T01:00:00Z', '2031-02-28T23:00:00Z');
    const monthLong = await encounter('2031-01-15', '2031-02-28');
    const ids = [overnight, threeDays, dayBefore, monthLong].join(',');
    const found = await search(`Encounter?_id=${ids}&date=ge2031-03-01&date=lt2031-03-02`);
    expect((found.entry ?? []).map((e) => e.resource.id).sort()).toEqual([overnight, threeDays].sort());
    const february = await search(`Encounter?_id=${ids}&date=gt2031-02-27T12:00:00Z&date=le2031-02-28`);
    expect((february.entry ?? []).map((e) => e.resource.id).sort()).toEqual(
      [overnight, threeDays, dayBefore, monthLong].sort(),
    );
  });

  it('filters on _lastUpdated', async () => {
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    expect(await total(`Observation?subject=Patient/${patientId}&_lastUpdated=gt${hourAgo}`)).toBe(observations.length);
    expect(await total(`Observation?subject=Patient/${patientId}&_lastUpdated=lt${hourAgo}`)).toBe(0);
  });
});

describe('quantity and number parameters', () => {
  it('compares values with prefixes and units', async () => {
    const quantities = observations
      .filter((o) => o.valueQuantity)
      .map((o) => o.valueQuantity as { value: number; code?: string; system?: string });
    const threshold = quantities.map((q) => q.value).sort((a, b) => a - b)[Math.floor(quantities.length / 2)];
    const subject = `Observation?subject=Patient/${patientId}`;
    expect(await total(`${subject}&value-quantity=gt${threshold}`)).toBe(
      quantities.filter((q) => q.value > threshold).length,
    );
    expect(await total(`${subject}&value-quantity=le${threshold}`)).toBe(
      quantities.filter((q) => q.value <= threshold).length,
    );
    const unit = quantities[0].code as string;
    expect(await total(`${subject}&value-quantity=ge0|http://unitsofmeasure.org|${encodeURIComponent(unit)}`)).toBe(
      quantities.filter((q) => q.code === unit && q.system === 'http://unitsofmeasure.org').length,
    );
  });
});

describe('composite parameters', () => {
  type Component = { code: { coding: Coding[] }; valueQuantity?: { value: number } };
  const components = (o: AnyResource) => (o.component ?? []) as Component[];
  const withComponent = (code: string, test: (value: number) => boolean) =>
    observations.filter((o) =>
      components(o).some(
        (c) =>
          c.code.coding.some((x) => x.code === code) && c.valueQuantity !== undefined && test(c.valueQuantity.value),
      ),
    ).length;

  it('pairs code and value within one component', async () => {
    const subject = `Observation?subject=Patient/${patientId}`;
    const systolic = '8480-6';
    const diastolic = '8462-4';
    expect(withComponent(systolic, () => true)).toBeGreaterThan(0);
    expect(await total(`${subject}&component-code-value-quantity=http://loinc.org|${systolic}$gt100`)).toBe(
      withComponent(systolic, (v) => v > 100),
    );
    expect(await total(`${subject}&component-code-value-quantity=http://loinc.org|${systolic}$le100`)).toBe(
      withComponent(systolic, (v) => v <= 100),
    );
    // Every diastolic value is below 100 while systolic ones are above: no cross-component match.
    expect(
      await total(
        `${subject}&component-code-value-quantity=http://loinc.org|${diastolic}$gt${Math.max(
          ...observations.flatMap((o) =>
            components(o)
              .filter((c) => c.code.coding.some((x) => x.code === diastolic))
              .map((c) => c.valueQuantity?.value ?? 0),
          ),
        )}`,
      ),
    ).toBe(0);
  });

  it('matches code and value of the Observation itself', async () => {
    // The fixture's most frequent code is a measurement (body height), so every one has a valueQuantity.
    const quantity = withTopCode[0].valueQuantity as { value: number };
    expect(quantity.value).toEqual(expect.any(Number));
    const expected = withTopCode.filter((o) => (o.valueQuantity as { value: number }).value >= quantity.value).length;
    expect(
      await total(
        `Observation?subject=Patient/${patientId}&code-value-quantity=${topSystem}|${topValue}$ge${quantity.value}`,
      ),
    ).toBe(expected);
  });

  it('refuses a composite value with the wrong number of parts', async () => {
    const answer = await http('GET', 'fhir/R4/Observation?component-code-value-quantity=http://loinc.org|8480-6');
    expect(answer.status).toBe(400);
    expect(issueText(answer.body)).toContain('needs 2 values joined by $');
  });
});

describe('string parameters', () => {
  it('matches by prefix without case or accents, :exact and :contains', async () => {
    expect(await total(`Patient?family=${family.toLowerCase().slice(0, 10)}`)).toBe(1);
    expect(await total(`Patient?name=${family.toUpperCase()}`)).toBe(1);
    expect(await total(`Patient?family:exact=${family}`)).toBe(1);
    expect(await total(`Patient?family:exact=${family.toLowerCase()}`)).toBe(0);
    expect(await total(`Patient?family:contains=${family.slice(3, 12)}`)).toBe(1);
    expect(await total(`Patient?family=${family.slice(3, 12)}`)).toBe(0);
  });
});

describe('reference parameters, chains and _has', () => {
  it('matches Type/id, a bare id with a :Type modifier, and chains one level', async () => {
    const encounters = of('Encounter').length;
    expect(await total(`Encounter?subject=Patient/${patientId}`)).toBe(encounters);
    expect(await total(`Encounter?subject:Patient=${patientId}`)).toBe(encounters);
    expect(await total(`Encounter?patient=${patientId}`)).toBe(encounters);
    expect(await total(`Observation?subject:Patient.name=${family}&code=${topSystem}|${topValue}`)).toBe(
      withTopCode.length,
    );
    expect(await total(`Observation?patient.name=${family}`)).toBe(observations.length);
  });

  it('matches a reference by its whole text: a canonical URL, and a reference to one version', async () => {
    const form = `http://example.org/Questionnaire/intake-${randomUUID()}|2.0`;
    const answered = await http<AnyResource>('POST', 'fhir/R4/QuestionnaireResponse', {
      body: { resourceType: 'QuestionnaireResponse', status: 'completed', questionnaire: form },
    });
    expect(answered.status).toBe(201);
    expect(await total(`QuestionnaireResponse?questionnaire=${encodeURIComponent(form)}`)).toBe(1);
    expect(await total(`QuestionnaireResponse?questionnaire=${encodeURIComponent(`${form}.1`)}`)).toBe(0);

    const patient = await http<AnyResource>('GET', `fhir/R4/Patient/${patientId}`);
    const version = (patient.body.meta as { versionId: string }).versionId;
    const note = await http<AnyResource>('POST', 'fhir/R4/Basic', {
      body: {
        resourceType: 'Basic',
        code: { text: `versioned-${randomUUID()}` },
        subject: { reference: `Patient/${patientId}/_history/${version}` },
      },
    });
    expect(note.status).toBe(201);
    const ofNote = `Basic?_id=${note.body.id}`;
    expect(await total(`${ofNote}&subject=${encodeURIComponent(`Patient/${patientId}/_history/${version}`)}`)).toBe(1);
    expect(await total(`${ofNote}&subject=Patient/${patientId}`)).toBe(1);
    expect(await total(`${ofNote}&subject=${encodeURIComponent(`Patient/${patientId}/_history/other`)}`)).toBe(0);
  });

  it('finds resources pointed at by others with _has', async () => {
    expect(await total(`Patient?_id=${patientId}&_has:Observation:subject:code=${topSystem}|${topValue}`)).toBe(1);
    expect(await total(`Patient?_id=${patientId}&_has:Observation:subject:code=urn:none|nothing`)).toBe(0);
  });

  it('limits results to a compartment', async () => {
    expect(await total(`Observation?_compartment=Patient/${patientId}`)).toBe(observations.length);
    expect(await total(`Condition?_compartment=Patient/${patientId}`)).toBe(of('Condition').length);
  });
});

describe('_include and _revinclude', () => {
  it('adds referenced resources as include entries', async () => {
    const bundle = await search(
      `Observation?subject=Patient/${patientId}&code=${topSystem}|${topValue}&_count=5&_include=Observation:subject`,
    );
    const matches = bundle.entry!.filter((e) => e.search.mode === 'match');
    const included = bundle.entry!.filter((e) => e.search.mode === 'include');
    expect(matches).toHaveLength(Math.min(5, withTopCode.length));
    expect(included.map((e) => `${e.resource.resourceType}/${e.resource.id}`)).toEqual([`Patient/${patientId}`]);
  });

  it('adds referring resources with _revinclude and follows :iterate', async () => {
    const bundle = await search(
      `Patient?_id=${patientId}&_revinclude=Encounter:subject&_include:iterate=Encounter:service-provider&_count=1`,
    );
    const included = bundle.entry!.filter((e) => e.search.mode === 'include').map((e) => e.resource);
    expect(included.filter((r) => r.resourceType === 'Encounter')).toHaveLength(of('Encounter').length);
    const providers = new Set(of('Encounter').map((e) => (e.serviceProvider as { reference: string }).reference));
    expect(included.filter((r) => r.resourceType === 'Organization')).toHaveLength(providers.size);
  });

  it('refuses _include=* and malformed includes', async () => {
    const star = await http('GET', 'fhir/R4/Observation?_include=*');
    expect(star.status).toBe(400);
    expect(issueText(star.body)).toContain('_include=* is not supported');
    expect((await http('GET', 'fhir/R4/Observation?_include=Observation')).status).toBe(400);
    expect((await http('GET', 'fhir/R4/Observation?_include=Observation:code')).status).toBe(400);
    expect((await http('GET', 'fhir/R4/Observation?_revinclude=Nope:subject')).status).toBe(400);
  });
});

describe('sorting, paging, totals and projections', () => {
  it('sorts by a date parameter both ways, with a stable tie-break', async () => {
    const expected = withTopCode.map(effective).sort((a, b) => a - b);
    const ascending = await search(
      `Observation?subject=Patient/${patientId}&code=${topSystem}|${topValue}&_sort=date&_count=1000`,
    );
    expect(ascending.entry!.map((e) => effective(e.resource))).toEqual(expected);
    const descending = await search(
      `Observation?subject=Patient/${patientId}&code=${topSystem}|${topValue}&_sort=-date&_count=1000`,
    );
    expect(descending.entry!.map((e) => effective(e.resource))).toEqual([...expected].reverse());
  });

  it('pages through every match exactly once', async () => {
    const seen: string[] = [];
    let url: string | undefined = `fhir/R4/Observation?subject=Patient/${patientId}&_count=7&_sort=date`;
    while (url) {
      const page: SearchBundle = (await http<SearchBundle>('GET', url)).body;
      seen.push(...(page.entry ?? []).map((e) => e.resource.id));
      url = page.link.find((l) => l.relation === 'next')?.url;
    }
    expect(seen).toHaveLength(observations.length);
    expect(new Set(seen).size).toBe(observations.length);
  });

  it('answers _summary=count with only the total, and _total=estimate with a number', async () => {
    const counted = await search(`Observation?subject=Patient/${patientId}&_summary=count`);
    expect(counted.total).toBe(observations.length);
    expect(counted.entry ?? []).toHaveLength(0);
    const estimated = await search(`Observation?subject=Patient/${patientId}&_total=estimate&_count=1`);
    expect(typeof estimated.total).toBe('number');
  });

  it('returns only the asked elements, marked SUBSETTED', async () => {
    const bundle = await search(`Observation?subject=Patient/${patientId}&_elements=status,code&_count=1`);
    const resource = bundle.entry![0].resource;
    expect(Object.keys(resource).sort()).toEqual(['code', 'id', 'meta', 'resourceType', 'status']);
    expect((resource.meta as { tag: Coding[] }).tag).toContainEqual({
      system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationValue',
      code: 'SUBSETTED',
    });
    const summary = await search(`Patient?_id=${patientId}&_summary=true`);
    expect(summary.entry![0].resource.text).toBeUndefined();
    expect(summary.entry![0].resource.name).toBeDefined();
    const data = await search(`Patient?_id=${patientId}&_summary=data`);
    expect(data.entry![0].resource.text).toBeUndefined();
    expect(data.entry![0].resource.extension).toBeDefined();
  });

  it('searches with POST _search and a form body', async () => {
    const answer = await http<SearchBundle>('POST', 'fhir/R4/Patient/_search', {
      rawBody: `family=${family}&_total=accurate`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.total).toBe(1);
  });

  it('matches canonical URLs with :below', async () => {
    expect(
      await total('StructureDefinition?url:below=http://hl7.org/fhir/us/core/StructureDefinition/us-core-pat'),
    ).toBeGreaterThanOrEqual(1);
  });
});

describe('search errors name what is wrong', () => {
  it.each([
    ['Observation?subject.name=x', /can point at several types/],
    ['Observation?subject:Patient.name.family=x', /one level/],
    ['Observation?code:exact=x', /Unsupported modifier ":exact"/],
    ['Observation?_has:Nope:subject:code=x', /Unknown resource type "Nope"/],
    ['Observation?_has:Observation:code:code=x', /not a reference parameter/],
    ['Observation?value-quantity=gtabc', /Invalid number/],
    ['Observation?_sort=nothing', /Unknown search parameter "nothing"/],
    ['Observation?_summary=some', /Invalid _summary/],
    ['Observation?_compartment=Patient', /Invalid _compartment/],
    ['Observation?subject:missing=maybe', /expected true or false/],
  ])('%s', async (query, message) => {
    const answer = await http('GET', `fhir/R4/${query}`);
    expect(answer.status).toBe(400);
    expect(issueText(answer.body)).toMatch(message);
  });
});
