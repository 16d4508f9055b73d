import { describe, expect, it } from 'vitest';
import { knownResourceTypes } from '../../data-provider/rules';
import { likelyReferenceTypes, referenceTypeChoices } from './likelyReferenceTypes';

const known = [...knownResourceTypes];

describe('likelyReferenceTypes', () => {
  it('puts the patient first for whom a resource is about (Task.for, Basic.subject, Consent.patient)', () => {
    expect(likelyReferenceTypes('Task.for', known)[0]).toBe('Patient');
    expect(likelyReferenceTypes('Basic.subject', known)[0]).toBe('Patient');
    expect(likelyReferenceTypes('Communication.about.subject', known)[0]).toBe('Patient');
  });

  it('puts the practitioner first for who acts (performer, author, requester, owner)', () => {
    for (const path of ['Task.owner', 'Communication.sender', 'Provenance.agent.who', 'List.source.author'])
      expect(likelyReferenceTypes(path, known)[0]).toBe('Practitioner');
  });

  it("reads a choice's value by the element's own name (authorReference → author)", () => {
    expect(likelyReferenceTypes('Basic.authorReference', known)[0]).toBe('Practitioner');
    expect(likelyReferenceTypes('Condition.reasonReference', known)[0]).toBe('Condition');
  });

  it('reads the element name through array indexes and slice names', () => {
    expect(likelyReferenceTypes('Task.restriction.recipient[1]', known)[0]).toBe('Practitioner');
    expect(likelyReferenceTypes('Observation.performer:lab', known)[0]).toBe('Practitioner');
  });

  it('links partOf to the resource it sits in (Task.partOf → Task)', () => {
    expect(likelyReferenceTypes('Task.partOf', known)).toEqual(['Task']);
  });

  it('falls back to the common clinical types for elements that say nothing (Provenance.target), never AccessPolicy', () => {
    const types = likelyReferenceTypes('Provenance.target', known);
    expect(types[0]).toBe('Patient');
    expect(types).not.toContain('AccessPolicy');
  });

  it('offers only types the server knows', () => {
    expect(likelyReferenceTypes('Task.for', ['Group', 'Patient'])).toEqual(['Patient', 'Group']);
    expect(likelyReferenceTypes('Task.for', ['Observation'])).toEqual([]);
  });
});

describe('referenceTypeChoices', () => {
  it('keeps an element’s own targets in the definition’s order', () => {
    expect(referenceTypeChoices('Observation.subject', ['Patient', 'Group', 'Device'], known)).toEqual({
      likely: ['Patient', 'Group', 'Device'],
      others: [],
    });
  });

  it('for any type: the likely types, then every other known type once', () => {
    const { likely, others } = referenceTypeChoices('Task.for', [], known);
    expect(likely[0]).toBe('Patient');
    expect(others).toContain('AccessPolicy');
    expect(others).not.toContain('Patient');
    expect([...likely, ...others].sort()).toEqual([...known].sort());
  });
});
