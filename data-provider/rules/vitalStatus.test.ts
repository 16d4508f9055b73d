import { describe, expect, it } from 'vitest';
import { isDeceased } from './vitalStatus';

describe('isDeceased', () => {
  it('reads either form of deceased[x]', () => {
    expect(isDeceased({ deceasedBoolean: true })).toBe(true);
    expect(isDeceased({ deceasedDateTime: '2024-03-03' })).toBe(true);
    expect(isDeceased({ deceasedDateTime: '2024-03-03T10:15:00+00:00' })).toBe(true);
  });

  it('takes deceasedBoolean false, or nothing recorded, as alive', () => {
    expect(isDeceased({ deceasedBoolean: false })).toBe(false);
    expect(isDeceased({})).toBe(false);
    expect(isDeceased(undefined)).toBe(false);
    expect(isDeceased({ deceasedDateTime: '' })).toBe(false);
  });
});
