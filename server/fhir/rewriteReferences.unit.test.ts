import { describe, expect, it } from 'vitest';
import { rewriteReferences } from './bundleProcessor';

describe('rewriteReferences', () => {
  const assigned = new Map([
    ['urn:uuid:p1', 'Patient/abc'],
    ['urn:uuid:e1', 'Encounter/def'],
  ]);

  it('replaces fullUrl references at any depth and in arrays, leaving the input unchanged', () => {
    const input = {
      resourceType: 'Observation',
      subject: { reference: 'urn:uuid:p1', display: 'Ann' },
      encounter: { reference: 'urn:uuid:e1' },
      performer: [{ reference: 'Practitioner/x' }, { reference: 'urn:uuid:p1' }],
      hasMember: [{ reference: 'urn:uuid:unknown' }],
    };
    const before = structuredClone(input);
    const output = rewriteReferences(input, assigned);
    expect(output).toEqual({
      resourceType: 'Observation',
      subject: { reference: 'Patient/abc', display: 'Ann' },
      encounter: { reference: 'Encounter/def' },
      performer: [{ reference: 'Practitioner/x' }, { reference: 'Patient/abc' }],
      hasMember: [{ reference: 'urn:uuid:unknown' }],
    });
    expect(input).toEqual(before);
  });

  it('copies only the way to a replaced reference and shares everything else', () => {
    const code = { coding: [{ system: 'http://loinc.org', code: '8867-4' }] };
    const performer = [{ reference: 'Practitioner/x' }];
    const input = { resourceType: 'Observation', code, performer, subject: { reference: 'urn:uuid:p1' } };
    const output = rewriteReferences(input, assigned) as typeof input;
    expect(output).not.toBe(input);
    expect(output.code).toBe(code);
    expect(output.performer).toBe(performer);
    // Nothing to replace: the very same object comes back.
    const plain = {
      resourceType: 'Patient',
      name: [{ family: 'Ng' }],
      managingOrganization: { reference: 'Organization/1' },
    };
    expect(rewriteReferences(plain, assigned)).toBe(plain);
    expect(rewriteReferences(plain, new Map())).toBe(plain);
  });

  it('only rewrites the `reference` element, not other strings that look like a fullUrl', () => {
    const input = { resourceType: 'Basic', text: { div: 'urn:uuid:p1' }, identifier: [{ value: 'urn:uuid:p1' }] };
    expect(rewriteReferences(input, assigned)).toBe(input);
  });
});
