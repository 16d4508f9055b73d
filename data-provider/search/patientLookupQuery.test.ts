import { describe, expect, it } from 'vitest';
import { patientLookupQuery } from './patientLookupQuery';

describe('patientLookupQuery', () => {
  it('searches a birth date, a record number or a name from what was typed', () => {
    expect(patientLookupQuery(' 1980-02-03 ')).toEqual({ birthdate: '1980-02-03' });
    expect(patientLookupQuery('A1034')).toEqual({ identifier: 'A1034' });
    expect(patientLookupQuery('12345')).toEqual({ identifier: '12345' });
    expect(patientLookupQuery('Quillfeather')).toEqual({ name: 'Quillfeather' });
    expect(patientLookupQuery('Nora Quill')).toEqual({ name: 'Nora Quill' });
    expect(patientLookupQuery("O'Brien-Smith")).toEqual({ name: "O'Brien-Smith" });
  });

  it('takes a date-like text with spaces, or a partial date, for something else than a birth date', () => {
    expect(patientLookupQuery('1980-02')).toEqual({ identifier: '1980-02' });
    expect(patientLookupQuery('born 1980')).toEqual({ name: 'born 1980' });
  });

  it('filters nothing on an empty or blank text', () => {
    expect(patientLookupQuery('')).toEqual({});
    expect(patientLookupQuery('   ')).toEqual({});
  });
});
