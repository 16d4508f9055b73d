import { describe, expect, it } from 'vitest';
import { findActiveLink } from './activeLink';

const appointments = ['/Appointment?status=proposed&_count=20', '/Appointment?status=booked&_count=20'];

describe('findActiveLink', () => {
  it('picks the link sharing the most query parameters with the location', () => {
    expect(findActiveLink('/Appointment?status=booked', appointments)).toBe('/Appointment?status=booked&_count=20');
    expect(findActiveLink('/Appointment?status=proposed&_sort=date', appointments)).toBe(
      '/Appointment?status=proposed&_count=20',
    );
  });

  it('ignores _count and _offset on both sides', () => {
    const links = ['/Task?_count=20', '/Task?owner=me&_offset=40'];
    expect(findActiveLink('/Task?owner=me&_count=100&_offset=0', links)).toBe('/Task?owner=me&_offset=40');
    // Paging alone does not count as a shared parameter: the first link wins the tie.
    expect(findActiveLink('/Task?_count=20&_offset=20', links)).toBe('/Task?_count=20');
  });

  it('needs the same path, not a prefix', () => {
    expect(findActiveLink('/Patient/123', ['/Patient'])).toBeUndefined();
    expect(findActiveLink('/Observation', ['/Patient', '/onboarding'])).toBeUndefined();
    expect(findActiveLink('/Patient/', ['/Patient?_count=20'])).toBe('/Patient?_count=20');
  });

  it('keeps the first link on a tie and accepts a link without parameters', () => {
    expect(findActiveLink('/Appointment', appointments)).toBe(appointments[0]);
    expect(findActiveLink('/onboarding', ['/onboarding'])).toBe('/onboarding');
    expect(findActiveLink('/', [])).toBeUndefined();
  });

  it('compares parameter values, not just names', () => {
    expect(findActiveLink('/Appointment?status=pending', appointments)).toBe(appointments[0]);
    expect(findActiveLink('/Appointment?status=booked&status=proposed', appointments)).toBe(appointments[0]);
  });
});
