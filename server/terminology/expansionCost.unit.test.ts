import { describe, expect, it } from 'vitest';
import type { CodeSystem, ValueSet } from '@medplum/fhirtypes';
import { descendantsOf, flattenConcepts } from './codeSystemConcepts';
import { expandValueSet, type TerminologySource } from './valueSetExpander';

/** An in-memory source that counts what the expansion asks for. */
function countingSource(valueSets: ValueSet[], codeSystems: CodeSystem[] = []) {
  const calls = { valueSet: 0, codeSystem: 0 };
  const source: TerminologySource = {
    valueSet: (url) => {
      calls.valueSet++;
      return Promise.resolve(valueSets.find((v) => v.url === url));
    },
    codeSystem: (url) => {
      calls.codeSystem++;
      return Promise.resolve(codeSystems.find((c) => c.url === url));
    },
  };
  return { source, calls };
}

describe('expansion cost', () => {
  it('fetches each nested ValueSet once however often it is named (was 40^3 fetches)', async () => {
    const level = (n: number): ValueSet => ({
      resourceType: 'ValueSet',
      status: 'active',
      url: `urn:vs:${n}`,
      compose:
        n === 3
          ? { include: [{ system: 'urn:cs', concept: [{ code: 'x' }] }] }
          : { include: [{ valueSet: Array.from({ length: 40 }, () => `urn:vs:${n + 1}`) }] },
    });
    const { source, calls } = countingSource([0, 1, 2, 3].map(level));
    const codes = await expandValueSet(level(0), source);
    expect(codes).toEqual([{ system: 'urn:cs', code: 'x', display: undefined }]);
    expect(calls.valueSet).toBe(3);
    expect(calls.codeSystem).toBe(1);
  });

  it('refuses a ValueSet that includes itself, through a cycle of others too', async () => {
    const a: ValueSet = {
      resourceType: 'ValueSet',
      status: 'active',
      url: 'urn:a',
      compose: { include: [{ valueSet: ['urn:b'] }] },
    };
    const b: ValueSet = {
      resourceType: 'ValueSet',
      status: 'active',
      url: 'urn:b',
      compose: { include: [{ valueSet: ['urn:a'] }] },
    };
    await expect(expandValueSet(a, countingSource([a, b]).source)).rejects.toThrow('includes itself');
  });

  it('keeps direct parents only and finds descendants through nesting, properties and cycles', () => {
    const codeSystem: CodeSystem = {
      resourceType: 'CodeSystem',
      status: 'active',
      content: 'complete',
      concept: [
        { code: 'root', concept: [{ code: 'child', concept: [{ code: 'grandchild' }] }] },
        { code: 'adopted', property: [{ code: 'subsumedBy', valueCode: 'grandchild' }] },
        { code: 'loop', property: [{ code: 'parent', valueCode: 'loop' }] },
      ],
    };
    const flat = flattenConcepts(codeSystem);
    expect(flat.map((c) => [c.code, c.parents])).toEqual([
      ['root', []],
      ['child', ['root']],
      ['grandchild', ['child']],
      ['adopted', ['grandchild']],
      ['loop', ['loop']],
    ]);
    expect([...descendantsOf(flat, 'root')].sort()).toEqual(['adopted', 'child', 'grandchild']);
    expect([...descendantsOf(flat, 'loop')]).toEqual(['loop']);
  });
});
