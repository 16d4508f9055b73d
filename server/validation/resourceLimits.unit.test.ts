import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Resource } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { FhirError } from '../fhir/fhirError';
import { definitionBundleFiles, readDefinitionBundle, readDefinitionFile } from '../definitions/definitionFiles';
import { extractIndexRows } from '../search/indexRows';
import { definitionSearchParameters } from '../serverRuntime';
import { fhirJsonSchema, refName } from './fhirJsonSchema';
import {
  checkResourceLimits,
  defaultResourceLimits,
  indexLimitCheck,
  resourceBodyLimit,
  type ResourceLimits,
} from './resourceLimits';
import {
  bytesAtLimit,
  countValues,
  elementsAtLimit,
  everyLimitAtOnce,
  indexValuesAtLimit,
  jsonBytes,
  manyNames,
  stringAtLimit,
} from './resourceLimits.test-support';
import { validateResource } from './resourceValidator';

/* eslint-disable @typescript-eslint/no-explicit-any -- resources built as plain JSON */

const limits = defaultResourceLimits;
const registry = definitionSearchParameters();

/** What checkResourceLimits throws: status, issue code, text and expression; undefined when it passes. */
function refusal(resource: unknown, root?: string, with_: ResourceLimits = limits) {
  try {
    checkResourceLimits(resource, root, with_);
    return undefined;
  } catch (error) {
    if (!(error instanceof FhirError)) throw error;
    const issue = error.outcome.issue?.[0];
    return { status: error.status, code: issue?.code, text: issue?.details?.text, expression: issue?.expression?.[0] };
  }
}

/** Index values of `resource` with the base search parameters, through the write's limit check. */
function indexWithLimits(resource: any, with_: ResourceLimits = limits) {
  const parameters = registry.forType(resource.resourceType);
  return extractIndexRows(
    resource,
    parameters,
    (url) => registry.typeOfUrl(url),
    indexLimitCheck(resource.resourceType, with_),
  );
}

function indexRefusal(resource: any, with_: ResourceLimits = limits) {
  try {
    const rows = indexWithLimits(resource, with_);
    return { values: Object.values(rows).reduce((sum, table) => sum + table.length, 0) };
  } catch (error) {
    if (!(error instanceof FhirError)) throw error;
    const issue = error.outcome.issue?.[0];
    return { status: error.status, text: issue?.details?.text, expression: issue?.expression?.[0] };
  }
}

describe('resource limits (RESOURCE_MAX_*)', () => {
  it("refuses the outside tester's Patient with 200,000 names on its element count, naming the path", () => {
    expect(refusal(manyNames(200_000))).toEqual({
      status: 413,
      code: 'too-costly',
      text: 'Patient has more than 100000 elements (JSON values); at most 100000 are allowed (RESOURCE_MAX_ELEMENTS)',
      // The 100,001st value in document order: the Patient, "Patient", the name array, then an
      // object and its family for each name (name[k].family is the (2k + 5)th).
      expression: 'Patient.name[49998].family',
    });
  });

  it('accepts each resource exactly at a limit, and refuses one more', () => {
    expect(countValues(elementsAtLimit(limits))).toBe(limits.maxElements);
    expect(refusal(elementsAtLimit(limits))).toBeUndefined();
    expect(refusal(elementsAtLimit(limits, 1))).toMatchObject({ status: 413, code: 'too-costly' });

    expect(jsonBytes(bytesAtLimit(limits))).toBe(limits.maxBytes);
    expect(refusal(bytesAtLimit(limits))).toBeUndefined();
    expect(refusal(bytesAtLimit(limits, 1))).toEqual({
      status: 413,
      code: 'too-long',
      text: expect.stringContaining(`DocumentReference is larger than ${limits.maxBytes} bytes as JSON`),
      expression: 'DocumentReference.content[0].attachment.data',
    });

    expect(refusal(stringAtLimit(limits))).toBeUndefined();
    expect(refusal(stringAtLimit(limits, 1))).toEqual({
      status: 413,
      code: 'too-long',
      text: `The string is ${limits.maxStringLength + 1} characters long; at most ${limits.maxStringLength} are allowed (RESOURCE_MAX_STRING_LENGTH)`,
      expression: 'Basic.extension[0].valueString',
    });

    const every = everyLimitAtOnce(limits);
    expect(countValues(every)).toBeGreaterThan(limits.maxElements - 3);
    expect(jsonBytes(every)).toBeGreaterThan(limits.maxBytes - 4);
    expect(refusal(every)).toBeUndefined();
    expect(indexRefusal(every)).toEqual({ values: limits.maxIndexValues });
  });

  it('counts bytes as compact JSON in UTF-8, whatever the characters', () => {
    const resource = {
      resourceType: 'Basic',
      code: { text: 'Zürich 東京 🙂 "quoted"' },
      extension: [
        { url: 'https://e.org/n', valueDecimal: -1.25e-7 },
        { url: 'https://e.org/b', valueBoolean: false },
      ],
      identifier: [],
      meta: {},
      author: null,
    };
    // Escaped characters are counted once (the stored value), so exactly the text without them.
    const size = jsonBytes(resource) - 2;
    expect(refusal(resource, undefined, { ...limits, maxBytes: size })).toBeUndefined();
    expect(refusal(resource, undefined, { ...limits, maxBytes: size - 1 })).toMatchObject({ status: 413 });
  });

  it('leaves base64Binary and xhtml to the bytes limit, not the string limit', () => {
    const small = { ...limits, maxStringLength: 20 };
    const long = 'QUJD'.repeat(10);
    expect(
      refusal({ resourceType: 'Binary', contentType: 'text/plain', data: long }, undefined, small),
    ).toBeUndefined();
    expect(
      refusal({ resourceType: 'Basic', text: { status: 'generated', div: `<div>${long}</div>` } }, undefined, small),
    ).toBeUndefined();
    expect(
      refusal(
        { resourceType: 'Basic', extension: [{ url: 'https://e.org/x', valueBase64Binary: long }] },
        undefined,
        small,
      ),
    ).toBeUndefined();
    expect(refusal({ resourceType: 'Basic', code: { text: long } }, undefined, small)).toMatchObject({
      status: 413,
      expression: 'Basic.code.text',
    });
  });

  it('exempts exactly the elements the FHIR schema types as base64Binary or xhtml', () => {
    // Every property name whose type is base64Binary or xhtml must be exempt (choice elements such as
    // valueBase64Binary are inlined as strings in the schema and are matched by their suffix).
    const small = { ...limits, maxStringLength: 7 };
    const names = new Set<string>();
    for (const definition of Object.values(fhirJsonSchema().definitions)) {
      for (const [key, property] of Object.entries(definition.properties ?? {})) {
        const type = refName(property.$ref) ?? refName(property.items?.$ref);
        if (type === 'base64Binary' || type === 'xhtml') names.add(key);
      }
    }
    expect([...names].sort()).toEqual(['carrierAIDC', 'data', 'div', 'hash', 'query', 'valueBase64Binary']);
    for (const key of names)
      expect(refusal({ resourceType: 'Basic', [key]: 'QUJDRA==' }, undefined, small)).toBeUndefined();
  });

  it("leaves out the resource's own id, which the server assigns after the body was checked", () => {
    const atLimit = elementsAtLimit(limits);
    expect(refusal({ ...atLimit, id: 'f'.repeat(64) })).toBeUndefined();
    expect(refusal({ ...bytesAtLimit(limits), id: '5b3f1a9e-2f59-4d8e-9a8c-0a1b2c3d4e5f' })).toBeUndefined();
    // Not a FHIR id: counted like anything else (and refused by the schema later).
    expect(refusal({ ...atLimit, id: 'f'.repeat(65) })).toMatchObject({ status: 413, expression: 'Basic.id' });
    expect(refusal({ ...atLimit, id: { nested: true } })).toMatchObject({ status: 413 });
    // meta counts: a client may fill it.
    expect(refusal({ ...atLimit, meta: {} })).toMatchObject({ status: 413 });
  });

  it('names the entry of a Bundle it is given as the root', () => {
    expect(refusal(manyNames(60_000), 'Bundle.entry[2].resource')).toMatchObject({
      status: 413,
      text: expect.stringContaining('Bundle.entry[2].resource has more than 100000 elements'),
      expression: 'Bundle.entry[2].resource.name[49998].family',
    });
  });

  it('is the first thing validateResource checks (a 413, before the schema walks it)', () => {
    expect(() => validateResource(manyNames(200_000))).toThrow(/RESOURCE_MAX_ELEMENTS/);
  });

  it('gives single-resource routes twice RESOURCE_MAX_BYTES of body, within MAX_BODY_BYTES', () => {
    expect(resourceBodyLimit(64 * 1024 * 1024, limits)).toBe(2 * limits.maxBytes);
    expect(resourceBodyLimit(1024, limits)).toBe(1024);
  });
});

describe('index limits (RESOURCE_MAX_INDEX_VALUES, RESOURCE_MAX_INDEX_TEXT)', () => {
  it('accepts a resource giving exactly the limit of index values and refuses one more, naming the parameter', () => {
    expect(indexRefusal(indexValuesAtLimit(limits))).toEqual({ values: limits.maxIndexValues });
    expect(indexRefusal(indexValuesAtLimit(limits, 'K', 1))).toEqual({
      status: 413,
      text: `Patient gives more than ${limits.maxIndexValues} search index values (3333 from the search parameter "phonetic"); at most ${limits.maxIndexValues} are allowed (RESOURCE_MAX_INDEX_VALUES)`,
      expression: 'Patient.name',
    });
  });

  it('refuses codings that each give several token values (combo-code), before any reaches the database', () => {
    const codings = Array.from({ length: 6_666 }, (_, i) => ({ system: 'http://loinc.org', code: `${i}-1` }));
    expect(indexRefusal({ resourceType: 'Observation', status: 'final', code: { coding: codings } })).toMatchObject({
      status: 413,
      text: expect.stringContaining('"combo-code"'),
    });
  });

  it('refuses more index text than allowed, naming the parameter', () => {
    // Each character of a family name is indexed six times: value and normalized, for name, family and phonetic.
    const length = Math.floor(limits.maxIndexText / 6);
    const accepted = indexRefusal({ resourceType: 'Patient', name: [{ family: 'x'.repeat(length - 10) }] });
    expect(accepted).toEqual({ values: 4 });
    expect(indexRefusal({ resourceType: 'Patient', name: [{ family: 'x'.repeat(length + 10) }] })).toMatchObject({
      status: 413,
      text: expect.stringContaining('RESOURCE_MAX_INDEX_TEXT'),
      expression: 'Patient.name',
    });
  });

  it('leaves extraction unchanged without a check (reindexing, trusted writes)', () => {
    const rows = extractIndexRows(indexValuesAtLimit(limits, 'K', 30), registry.forType('Patient'), (url) =>
      registry.typeOfUrl(url),
    );
    expect(Object.values(rows).reduce((sum, table) => sum + table.length, 0)).toBe(limits.maxIndexValues + 30);
  });
});

/** Never refuse what the server itself loads or imports (the limits leave several times their largest). */
describe('resource limits against the definitions and the Synthea data', { timeout: 120_000 }, () => {
  const accept = (resource: Resource) => {
    checkResourceLimits(resource);
    indexWithLimits(resource);
  };

  it('accept every definition the server loads', () => {
    let count = 0;
    for (const file of definitionBundleFiles) {
      const resources = file.startsWith('testing/') ? readDefinitionFile<Resource[]>(file) : readDefinitionBundle(file);
      for (const resource of resources) {
        accept(resource);
        count++;
      }
    }
    expect(count).toBeGreaterThan(4000);
  });

  it.each([
    join(import.meta.dirname, '../../tests/fixtures/synthea'),
    join(import.meta.dirname, '../../../shared/data/synthea-r4'),
  ])('accept every Synthea Bundle of %s, and each of its resources', (folder) => {
    if (!existsSync(folder)) return;
    const files = readdirSync(folder).filter((file) => file.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const bundle = JSON.parse(readFileSync(join(folder, file), 'utf8')) as { entry?: { resource: Resource }[] };
      // Stored whole as a collection, too.
      checkResourceLimits(bundle);
      for (const entry of bundle.entry ?? []) accept(entry.resource);
    }
  });
});
