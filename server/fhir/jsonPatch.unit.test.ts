import { describe, expect, it } from 'vitest';
import { FhirError } from './fhirError';
import { applyPatch, parsePatch } from './jsonPatch';

function statusOf(work: () => unknown): number | undefined {
  try {
    work();
    return undefined;
  } catch (error) {
    return error instanceof FhirError ? error.status : -1;
  }
}

describe('applyPatch (RFC 6902)', () => {
  const doc = { a: { b: [1, 2, 3] }, c: 'x', 'd/e': 1, 'f~g': 2 };

  it('adds into objects and arrays, including the end marker', () => {
    expect(applyPatch(doc, parsePatch([{ op: 'add', path: '/a/b/1', value: 9 }])).a.b).toEqual([1, 9, 2, 3]);
    expect(applyPatch(doc, parsePatch([{ op: 'add', path: '/a/b/-', value: 4 }])).a.b).toEqual([1, 2, 3, 4]);
    expect(applyPatch(doc, parsePatch([{ op: 'add', path: '/n', value: null }]))).toHaveProperty('n', null);
  });

  it('removes, replaces, moves and copies', () => {
    const out = applyPatch(
      doc,
      parsePatch([
        { op: 'remove', path: '/a/b/0' },
        { op: 'replace', path: '/c', value: 'y' },
        { op: 'copy', from: '/c', path: '/copy' },
        { op: 'move', from: '/copy', path: '/moved' },
      ]),
    ) as Record<string, unknown>;
    expect(out).toMatchObject({ a: { b: [2, 3] }, c: 'y', moved: 'y' });
    expect(out).not.toHaveProperty('copy');
  });

  it('unescapes ~1 and ~0 in pointers', () => {
    const out = applyPatch(
      doc,
      parsePatch([
        { op: 'replace', path: '/d~1e', value: 5 },
        { op: 'remove', path: '/f~0g' },
      ]),
    );
    expect(out).toMatchObject({ 'd/e': 5 });
    expect(out).not.toHaveProperty('f~g');
  });

  it('never changes its input', () => {
    const copy = structuredClone(doc);
    applyPatch(doc, parsePatch([{ op: 'remove', path: '/a' }]));
    expect(doc).toEqual(copy);
  });

  it('answers 412 for a failed test and compares deeply', () => {
    expect(
      statusOf(() => applyPatch(doc, parsePatch([{ op: 'test', path: '/a', value: { b: [1, 2, 3] } }]))),
    ).toBeUndefined();
    expect(statusOf(() => applyPatch(doc, parsePatch([{ op: 'test', path: '/a', value: { b: [1, 2] } }])))).toBe(412);
    expect(statusOf(() => applyPatch(doc, parsePatch([{ op: 'test', path: '/c', value: 'X' }])))).toBe(412);
  });

  it('answers 400 for paths that do not exist and malformed operations', () => {
    expect(statusOf(() => applyPatch(doc, parsePatch([{ op: 'remove', path: '/zz' }])))).toBe(400);
    expect(statusOf(() => applyPatch(doc, parsePatch([{ op: 'replace', path: '/a/b/3', value: 1 }])))).toBe(400);
    expect(statusOf(() => applyPatch(doc, parsePatch([{ op: 'add', path: '/a/b/01', value: 1 }])))).toBe(400);
    expect(statusOf(() => applyPatch(doc, parsePatch([{ op: 'add', path: 'a', value: 1 }])))).toBe(400);
    expect(statusOf(() => applyPatch(doc, parsePatch([{ op: 'move', from: '/a', path: '/a/b/0' }])))).toBe(400);
    expect(statusOf(() => parsePatch({}))).toBe(400);
    expect(statusOf(() => parsePatch([{ op: 'add', path: '/x' }]))).toBe(400);
    expect(statusOf(() => parsePatch([{ op: 'copy', path: '/x' }]))).toBe(400);
    expect(statusOf(() => parsePatch(['nope']))).toBe(400);
  });
});
