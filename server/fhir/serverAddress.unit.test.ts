import { describe, expect, it } from 'vitest';
import { ServerAddress, withLocalReferences } from './serverAddress';

describe('ServerAddress.localForm: references to this server’s own FHIR base', () => {
  const local = new ServerAddress('http://localhost:8461/', 8461);

  it('turns every spelling that reaches this server into the relative form', () => {
    for (const reference of [
      'http://localhost:8461/fhir/R4/Patient/p1',
      'HTTP://LOCALHOST:8461/fhir/R4/Patient/p1',
      'https://localhost:8461/fhir/R4/Patient/p1',
      'http://localhost:8461/FHIR/r4/Patient/p1',
      'http://localhost:8461//fhir//R4//Patient/p1',
      'http://localhost:8461/fhir/R4/Patient/p1/',
      'http://localhost:8461/fhir/%52%34/Patient/%70%31',
      'http://user:secret@localhost:8461/fhir/R4/Patient/p1',
      'http://localhost.:8461/fhir/R4/Patient/p1',
      'http://127.0.0.1:8461/fhir/R4/Patient/p1',
      'http://127.1:8461/fhir/R4/Patient/p1',
      'http://[::1]:8461/fhir/R4/Patient/p1',
      'http://0.0.0.0:8461/fhir/R4/Patient/p1',
      '//localhost:8461/fhir/R4/Patient/p1',
      '/fhir/R4/Patient/p1',
      '  http://localhost:8461/fhir/R4/Patient/p1  ',
    ]) {
      expect(local.localForm(reference), reference).toBe('Patient/p1');
    }
    expect(local.localForm('http://localhost:8461/fhir/R4/Patient/p1/_history/3')).toBe('Patient/p1/_history/3');
    expect(local.localForm('http://localhost:8461/fhir/R4/Patient?identifier=urn:mrn|1')).toBe(
      'Patient?identifier=urn:mrn|1',
    );
  });

  it('leaves other servers, other ports, other paths and non-absolute references alone', () => {
    for (const reference of [
      'Patient/p1',
      '#contained',
      'urn:uuid:6b7c1a3e-0000-4000-8000-000000000000',
      'http://localhost:8462/fhir/R4/Patient/p1',
      'http://other.example/fhir/R4/Patient/p1',
      'https://localhost.evil.example:8461/fhir/R4/Patient/p1',
      'http://localhost:8461/fhir/R5/Patient/p1',
      'http://localhost:8461/Patient/p1',
      'http://localhost:8461/fhir/R4/',
      'ftp://localhost:8461/fhir/R4/Patient/p1',
      'http://[not a url',
    ]) {
      expect(local.localForm(reference), reference).toBeUndefined();
    }
  });

  it('compares the default port of either scheme, and a BASE_URL path, for a public BASE_URL', () => {
    const hosted = new ServerAddress('https://Hearth.Example/emr/', 8103);
    expect(hosted.localForm('https://hearth.example/emr/fhir/R4/Observation/o1')).toBe('Observation/o1');
    expect(hosted.localForm('https://hearth.example:443/emr/fhir/R4/Observation/o1')).toBe('Observation/o1');
    expect(hosted.localForm('http://hearth.example/emr/fhir/R4/Observation/o1')).toBe('Observation/o1');
    // The listener behind the proxy, reached on the machine itself.
    expect(hosted.localForm('http://127.0.0.1:8103/fhir/R4/Observation/o1')).toBe('Observation/o1');
    expect(hosted.localForm('https://hearth.example:8443/emr/fhir/R4/Observation/o1')).toBeUndefined();
    expect(hosted.localForm('http://localhost/emr/fhir/R4/Observation/o1')).toBeUndefined();
    expect(hosted.localForm('https://elsewhere.example/emr/fhir/R4/Observation/o1')).toBeUndefined();
  });
});

describe('withLocalReferences', () => {
  const server = new ServerAddress('http://localhost:8461/');

  it('rewrites references at any depth, contained resources included, and copies only what changed', () => {
    const coding = { system: 'http://loinc.org', code: '1' };
    const resource = {
      resourceType: 'Observation',
      code: { coding: [coding] },
      subject: { reference: 'http://localhost:8461/fhir/R4/Patient/p1', display: 'P' },
      performer: [{ reference: 'Practitioner/a' }, { reference: 'https://other.example/fhir/Practitioner/b' }],
      contained: [
        { resourceType: 'Device', id: 'd', owner: { reference: 'http://localhost:8461/fhir/R4/Organization/o' } },
      ],
      // Not a Reference: a URL in another element stays as it is.
      derivedFrom: [{ reference: 'Observation/x' }],
      note: [{ text: 'http://localhost:8461/fhir/R4/Patient/p1' }],
    };
    const result = withLocalReferences(resource, server);
    expect(result).not.toBe(resource);
    expect(result.subject).toEqual({ reference: 'Patient/p1', display: 'P' });
    expect(result.performer[1].reference).toBe('https://other.example/fhir/Practitioner/b');
    expect(result.contained[0].owner.reference).toBe('Organization/o');
    expect(result.note[0].text).toBe('http://localhost:8461/fhir/R4/Patient/p1');
    // Unchanged parts are shared; the input is not modified.
    expect(result.code).toBe(resource.code);
    expect(result.performer).toBe(resource.performer);
    expect(resource.subject.reference).toBe('http://localhost:8461/fhir/R4/Patient/p1');
  });

  it('returns the very same object when no reference names this server', () => {
    const resource = {
      resourceType: 'Observation',
      subject: { reference: 'Patient/p1' },
      focus: [{ reference: 'https://x.example/A/1' }],
    };
    expect(withLocalReferences(resource, server)).toBe(resource);
  });
});
