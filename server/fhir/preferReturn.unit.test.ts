import { describe, expect, it } from 'vitest';
import type { Bundle } from '@medplum/fhirtypes';
import { bundleForPreference, returnPreferenceOf, writeOutcome } from './preferReturn';

describe('returnPreferenceOf', () => {
  it('reads the return preference among others, without case, quotes or parameters', () => {
    expect(returnPreferenceOf(undefined)).toBe('representation');
    expect(returnPreferenceOf('return=minimal')).toBe('minimal');
    expect(returnPreferenceOf('handling=strict, return=OperationOutcome')).toBe('OperationOutcome');
    expect(returnPreferenceOf('Return="operationoutcome"; x=1')).toBe('OperationOutcome');
    expect(returnPreferenceOf('return=representation')).toBe('representation');
  });

  it('ignores what it does not know (RFC 7240)', () => {
    expect(returnPreferenceOf('return=everything')).toBe('representation');
    expect(returnPreferenceOf('respond-async')).toBe('representation');
    expect(returnPreferenceOf('minimal')).toBe('representation');
  });
});

describe('writeOutcome', () => {
  const resource = { resourceType: 'Patient' as const, id: 'p1', meta: { versionId: 'v2' } };
  it('says what the write did', () => {
    const text = (o: ReturnType<typeof writeOutcome>) => o.issue?.[0].details?.text;
    expect(text(writeOutcome('create', { status: 201, resource }))).toBe('Created Patient/p1, version v2');
    expect(text(writeOutcome('update', { status: 200, resource }))).toBe('Updated Patient/p1, version v2');
    expect(text(writeOutcome('patch', { status: 200, resource }))).toBe('Patched Patient/p1, version v2');
    expect(text(writeOutcome('create', { status: 200, resource }))).toContain('matched If-None-Exist');
    expect(writeOutcome('update', { status: 201, resource }).issue?.[0].severity).toBe('information');
  });
});

describe('bundleForPreference', () => {
  const answer: Bundle = {
    resourceType: 'Bundle',
    type: 'batch-response',
    entry: [
      { resource: { resourceType: 'Patient', id: 'a' }, response: { status: '201' } },
      { resource: { resourceType: 'Patient', id: 'b' }, response: { status: '200' } },
      { resource: { resourceType: 'OperationOutcome', issue: [] }, response: { status: '200' } },
      { response: { status: '400', outcome: { resourceType: 'OperationOutcome', issue: [] } } },
    ],
  };
  const requests = [
    { request: { method: 'POST' as const, url: 'Patient' } },
    { request: { method: 'GET' as const, url: 'Patient/b' } },
    { request: { method: 'POST' as const, url: 'Patient/$validate' } },
    { request: { method: 'PUT' as const, url: 'Patient/c' } },
  ];

  it('leaves the answer alone for representation', () => {
    expect(bundleForPreference(answer, requests, 'representation')).toBe(answer);
  });

  it('drops the resources of writes only under minimal', () => {
    const entries = bundleForPreference(answer, requests, 'minimal').entry ?? [];
    expect(entries.map((e) => e.resource?.id ?? e.resource?.resourceType)).toEqual([
      undefined,
      'b',
      'OperationOutcome',
      undefined,
    ]);
    expect(entries[0].response?.outcome).toBeUndefined();
  });

  it('gives writes an outcome and keeps an error outcome as it was', () => {
    const entries = bundleForPreference(answer, requests, 'OperationOutcome').entry ?? [];
    expect(entries[0].resource).toBeUndefined();
    expect(entries[0].response?.outcome?.issue?.[0].details?.text).toBe('Created Patient/a');
    expect(entries[3].response?.outcome).toEqual({ resourceType: 'OperationOutcome', issue: [] });
  });
});
