import { describe, expect, it } from 'vitest';
import { issueText, outcomeErrors, stripIndexes } from './outcomeErrors';
import { versionDiff } from './versionDiff';

describe('version diff', () => {
  it('lists changed, added and removed leaf values and ignores meta', () => {
    const before = {
      resourceType: 'Patient',
      meta: { versionId: '1' },
      gender: 'male',
      name: [{ given: ['A'] }],
      active: true,
    };
    const after = {
      resourceType: 'Patient',
      meta: { versionId: '2' },
      gender: 'female',
      name: [{ given: ['A', 'B'] }],
      birthDate: '2000',
    };
    expect(versionDiff(before, after)).toEqual([
      { path: 'gender', before: 'male', after: 'female' },
      { path: 'name[0].given[1]', before: undefined, after: 'B' },
      { path: 'active', before: true, after: undefined },
      { path: 'birthDate', before: undefined, after: '2000' },
    ]);
  });

  it('is empty when only meta changed', () => {
    expect(versionDiff({ a: 1, meta: { versionId: '1' } }, { a: 1, meta: { versionId: '2' } })).toEqual([]);
  });
});

describe('outcome errors', () => {
  it('key issues by expression without array indexes and keep the rest general', () => {
    const { byPath, general } = outcomeErrors(
      {
        resourceType: 'OperationOutcome',
        issue: [
          {
            severity: 'error',
            code: 'required',
            details: { text: 'Missing required property' },
            expression: ['Observation.status'],
          },
          { severity: 'error', code: 'invalid', diagnostics: 'Bad date', expression: ['Patient.name[1].period.start'] },
          { severity: 'warning', code: 'informational', details: { text: 'ignored' }, expression: ['Patient.x'] },
          { severity: 'error', code: 'invalid', details: { text: 'Whole resource' } },
        ],
      },
      (path) => path !== 'Nowhere',
    );
    expect(byPath.get('Observation.status')).toBe('Missing required property');
    expect(byPath.get('Patient.name.period.start')).toBe('Bad date');
    expect(byPath.has('Patient.x')).toBe(false);
    expect(general).toEqual(['Whole resource']);
  });

  it('strip indexes and fall back to the code', () => {
    expect(stripIndexes('Patient.name[0].given[12]')).toBe('Patient.name.given');
    expect(issueText({ severity: 'error', code: 'processing' })).toBe('processing');
  });
});
