import type { ValueSet } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import type { ValueSetExpandParams } from '../../data-provider/client';
import { valueSetExpandLookup } from './valueSetExpandLookup';

describe('valueSetExpandLookup', () => {
  const calls: ValueSetExpandParams[] = [];
  const lookup = valueSetExpandLookup({
    async valueSetExpand(params) {
      calls.push(params);
      if (params.url === 'http://broken') throw new Error('not found');
      const expansion: ValueSet['expansion'] = {
        timestamp: '2024-01-01T00:00:00Z',
        contains: [
          { system: 'http://s', code: 'female-ish' },
          { system: 'http://s', code: 'parent', contains: [{ system: 'http://s', code: 'female' }] },
        ],
      };
      return { resourceType: 'ValueSet', status: 'active', expansion };
    },
  });

  it('finds a code (nested included) with a matching or absent system, one expansion per code', async () => {
    expect(await lookup.hasCode('http://vs', 'http://s', 'female')).toBe(true);
    expect(await lookup.hasCode('http://vs', undefined, 'female')).toBe(true);
    expect(await lookup.hasCode('http://vs', 'http://other', 'female')).toBe(false);
    expect(await lookup.hasCode('http://vs', 'http://s', 'fem')).toBe(false);
    await lookup.hasCode('http://vs', 'http://s', 'female');
    expect(calls.filter((c) => c.filter === 'female')).toHaveLength(1); // one expansion per ValueSet and code
    expect(calls[0]).toEqual({ url: 'http://vs', filter: 'female', count: 50 });
  });

  it('answers undefined (not checked) when the ValueSet cannot be expanded', async () => {
    expect(await lookup.hasCode('http://broken', undefined, 'x')).toBeUndefined();
  });
});
