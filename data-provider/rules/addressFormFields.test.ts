import { describe, expect, it } from 'vitest';
import { ADDRESS_FORM_FIELDS, ADDRESS_FORM_LINE_COUNT, ADDRESS_TYPES, ADDRESS_USES } from './addressFormFields';

describe('address form fields', () => {
  it('offer the uses and types of the spec', () => {
    expect(ADDRESS_USES).toEqual(['home', 'work', 'temp', 'old', 'billing']);
    expect(ADDRESS_TYPES).toEqual(['postal', 'physical', 'both']);
  });
  it('are use, type, two lines, city, state and postal code', () => {
    expect(ADDRESS_FORM_FIELDS).toEqual(['use', 'type', 'line1', 'line2', 'city', 'state', 'postalCode']);
    expect(ADDRESS_FORM_FIELDS.filter((field) => field.startsWith('line'))).toHaveLength(ADDRESS_FORM_LINE_COUNT);
    expect(ADDRESS_FORM_LINE_COUNT).toBe(2);
  });
});
