import { describe, expect, it } from 'vitest';
import { unsupportedFormatReason } from './formatNegotiation';

describe('unsupportedFormatReason', () => {
  it('accepts the JSON _format values, with a + a query string turned into a space', () => {
    for (const format of ['json', 'application/json', 'application/fhir+json', 'application/fhir json', 'JSON']) {
      expect(unsupportedFormatReason(format, undefined)).toBeUndefined();
    }
    expect(unsupportedFormatReason('application/fhir+json; fhirVersion=4.0', undefined)).toBeUndefined();
  });

  it('refuses XML and other _format values, whatever Accept says', () => {
    expect(unsupportedFormatReason('xml', 'application/fhir+json')).toMatch(/^XML is not supported/);
    expect(unsupportedFormatReason('application/fhir xml', undefined)).toMatch(/^XML is not supported/);
    expect(unsupportedFormatReason('ttl', undefined)).toContain('_format "ttl" is not supported');
  });

  it('lets _format=json win over an XML Accept', () => {
    expect(unsupportedFormatReason('json', 'application/fhir+xml')).toBeUndefined();
  });

  it('refuses an Accept naming XML that admits no JSON', () => {
    expect(unsupportedFormatReason(undefined, 'application/fhir+xml')).toMatch(/^XML is not supported/);
    expect(unsupportedFormatReason(undefined, 'application/xml, text/xml')).toMatch(/^XML is not supported/);
    expect(unsupportedFormatReason(undefined, 'application/fhir+xml, application/fhir+json;q=0')).toBeDefined();
  });

  it('keeps answering JSON to an Accept that admits it, to */* and to no Accept', () => {
    for (const accept of [
      undefined,
      '*/*',
      'application/fhir+json',
      'application/json',
      'application/fhir+xml;q=1, application/fhir+json;q=0.5',
      'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'application/*',
      'text/html',
    ]) {
      expect(unsupportedFormatReason(undefined, accept)).toBeUndefined();
    }
  });
});
