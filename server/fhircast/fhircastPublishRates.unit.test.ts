import { describe, expect, it } from 'vitest';
import { FhircastPublishRates } from './fhircastPublishRates';

describe('FhircastPublishRates', () => {
  it('counts each publisher on its own, and forgets those whose bucket is full again', () => {
    let now = Date.parse('2026-12-01T08:00:00Z');
    const rates = new FhircastPublishRates({ perSecond: 2, burst: 3 }, () => now);
    for (let i = 0; i < 3; i++) expect(rates.take('project\nPractitioner/a')).toBeUndefined();
    expect(rates.take('project\nPractitioner/a')).toBe(1);
    expect(rates.take('project\nPractitioner/b')).toBeUndefined();

    // b is full again a second later, a (emptied) not yet.
    now += 1_000;
    rates.sweep();
    expect(rates.size).toBe(1);
    now += 1_000;
    rates.sweep();
    expect(rates.size).toBe(0);
    for (let i = 0; i < 3; i++) expect(rates.take('project\nPractitioner/a')).toBeUndefined();
  });

  it('asks for a whole second at least, and more when the rate is slower', () => {
    const now = Date.parse('2026-12-01T08:00:00Z');
    const slow = new FhircastPublishRates({ perSecond: 0.25, burst: 1 }, () => now);
    expect(slow.take('p')).toBeUndefined();
    expect(slow.take('p')).toBe(4);
  });
});
