import { describe, expect, it } from 'vitest';
import type { CodeSystem } from '@medplum/fhirtypes';
import { flattenConcepts } from './codeSystemConcepts';
import { subsumption } from './codeSubsumption';

const animals: CodeSystem = {
  resourceType: 'CodeSystem',
  status: 'active',
  content: 'complete',
  concept: [
    {
      code: 'animal',
      concept: [
        { code: 'dog', concept: [{ code: 'puppy' }] },
        { code: 'cat', concept: [{ code: 'kitten' }] },
      ],
    },
    // A second parent stated by property: a puppy is also a young animal.
    { code: 'young', concept: [{ code: 'kitten' }] },
    { code: 'pup', property: [{ code: 'subsumedBy', valueCode: 'young' }] },
    { code: 'plant' },
  ],
};

describe('subsumption', () => {
  const concepts = flattenConcepts(animals);

  it('answers subsumes and subsumed-by through nesting, at any depth', () => {
    expect(subsumption(concepts, 'animal', 'puppy')).toBe('subsumes');
    expect(subsumption(concepts, 'puppy', 'animal')).toBe('subsumed-by');
    expect(subsumption(concepts, 'dog', 'puppy')).toBe('subsumes');
  });

  it('follows every parent of a code stated twice, and parents given by property', () => {
    expect(subsumption(concepts, 'young', 'kitten')).toBe('subsumes');
    expect(subsumption(concepts, 'kitten', 'animal')).toBe('subsumed-by');
    expect(subsumption(concepts, 'young', 'pup')).toBe('subsumes');
  });

  it('answers not-subsumed for siblings and unrelated codes, equivalent for the same code', () => {
    expect(subsumption(concepts, 'dog', 'cat')).toBe('not-subsumed');
    expect(subsumption(concepts, 'puppy', 'kitten')).toBe('not-subsumed');
    expect(subsumption(concepts, 'plant', 'animal')).toBe('not-subsumed');
    expect(subsumption(concepts, 'dog', 'dog')).toBe('equivalent');
  });

  it('ends on a cycle, and two codes each above the other are equivalent', () => {
    const cyclic = flattenConcepts({
      resourceType: 'CodeSystem',
      status: 'active',
      content: 'complete',
      concept: [
        { code: 'a', property: [{ code: 'parent', valueCode: 'b' }] },
        { code: 'b', property: [{ code: 'parent', valueCode: 'a' }] },
        { code: 'c', property: [{ code: 'parent', valueCode: 'c' }] },
      ],
    });
    expect(subsumption(cyclic, 'a', 'b')).toBe('equivalent');
    expect(subsumption(cyclic, 'c', 'a')).toBe('not-subsumed');
  });

  it('walks a long chain once (linear, not quadratic)', () => {
    const size = 20_000;
    const chain = flattenConcepts({
      resourceType: 'CodeSystem',
      status: 'active',
      content: 'complete',
      concept: Array.from({ length: size }, (_, i) => ({
        code: `c${i}`,
        ...(i > 0 ? { property: [{ code: 'parent', valueCode: `c${i - 1}` }] } : {}),
      })),
    });
    expect(subsumption(chain, 'c0', `c${size - 1}`)).toBe('subsumes');
    expect(subsumption(chain, `c${size - 1}`, 'c0')).toBe('subsumed-by');
  });
});
