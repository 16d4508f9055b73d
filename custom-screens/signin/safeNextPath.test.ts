import { describe, expect, it } from 'vitest';
import { safeNextPath } from './safeNextPath';

describe('safeNextPath', () => {
  it('keeps paths of this app with their query', () => {
    expect(safeNextPath('/Patient?name=x')).toBe('/Patient?name=x');
    expect(safeNextPath('/Patient/1/_history/2')).toBe('/Patient/1/_history/2');
  });

  it('falls back to / for anything that could leave the site or is missing', () => {
    for (const next of [
      null,
      undefined,
      '',
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'Patient',
      '/\t/evil.example',
      'javascript:alert(1)',
    ]) {
      expect(safeNextPath(next)).toBe('/');
    }
  });

  it('does not send a signed-in user back to the signed-out pages', () => {
    expect(safeNextPath('/signin')).toBe('/');
    expect(safeNextPath('/setpassword/a/b')).toBe('/');
    expect(safeNextPath('/oauth?client_id=x')).toBe('/');
    expect(safeNextPath('/signing-sheet')).toBe('/signing-sheet');
  });
});
