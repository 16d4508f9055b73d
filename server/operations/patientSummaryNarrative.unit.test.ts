import { describe, expect, it } from 'vitest';
import type { Condition, MedicationRequest, Observation, Patient, Resource } from '@medplum/fhirtypes';
import { narrativeActiveContent } from '../../data-provider/validation/narrativeXhtml';
import { buildPatientSummary } from './patientSummary';
import { readableDate } from './patientSummaryDates';
import { emptySectionNarrative, escapeXhtml, sectionNarrative } from './patientSummaryNarrative';
import { latestPerCode, summarySections } from './patientSummarySections';

const nothing = () => undefined;
const hostile = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' onmouseover='alert(1)",
  '<!-- <a href="javascript:alert(1)">x</a> -->',
  ']]><![CDATA[<script>x</script>',
  '&lt;script&gt; &amp; &#60;',
  'bell\u0007 nul\u0000 lone\uD800 surrogate',
];

describe('patient summary narrative', () => {
  it('escapes every character that could start markup, and drops what XML forbids', () => {
    expect(escapeXhtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(escapeXhtml('bell\u0007 nul\u0000 tab\tline\n')).toBe('bell nul tab\tline\n');
    expect(escapeXhtml('lone\uD800 pair\uD83D\uDE00')).toBe('lone pair\uD83D\uDE00');
  });

  it('makes narratives the server would store, whatever the stored values hold', () => {
    for (const text of hostile) {
      const condition: Condition = {
        resourceType: 'Condition',
        id: 'c1',
        subject: { reference: 'Patient/p' },
        code: { text, coding: [{ display: text }] },
        clinicalStatus: { text },
        onsetDateTime: text,
      };
      const div = sectionNarrative('problems', [condition], nothing);
      expect(narrativeActiveContent(div), `${text} -> ${div}`).toBeUndefined();
      expect(div).not.toMatch(/<(script|img|a|!)/);
      expect(div).toContain(escapeXhtml(text).slice(0, 10));
    }
  });

  it('reads a medication from the document or from the request itself', () => {
    const request: MedicationRequest = {
      resourceType: 'MedicationRequest',
      id: 'r1',
      status: 'active',
      intent: 'order',
      subject: { reference: 'Patient/p' },
      medicationReference: { reference: '#m' },
      contained: [{ resourceType: 'Medication', id: 'm', code: { text: 'Contained <drug>' } }],
      authoredOn: '2024-02-01T23:30:00-05:00',
    };
    const div = sectionNarrative('medications', [request], (reference, from) =>
      (from as MedicationRequest).contained?.find((c) => `#${c.id}` === reference?.reference),
    );
    expect(div).toContain('<td>Contained &lt;drug&gt;</td>');
    // The day as written, not moved to another zone.
    expect(div).toContain('<td>Feb 1, 2024</td>');
  });

  it('writes dates as people read them, keeping a partial date partial', () => {
    expect(readableDate('2019-05-04')).toBe('May 4, 2019');
    expect(readableDate('2019-05')).toBe('May 2019');
    expect(readableDate('2019-05-04T23:59:00+14:00')).toBe('May 4, 2019');
    expect(readableDate(undefined)).toBe('');
  });

  it('never says an empty section means none', () => {
    expect(emptySectionNarrative('allergies', 'Allergies and Intolerances', false)).toBe(
      '<div xmlns="http://www.w3.org/1999/xhtml"><p>There is no information about allergies or intolerances.</p></div>',
    );
    expect(emptySectionNarrative('problems', 'Problem List', true)).toContain('not included');
  });
});

describe('buildPatientSummary', () => {
  const patient: Patient = { resourceType: 'Patient', id: 'p', name: [{ family: '<b>Doe</b>' }] };
  const options = {
    fhirBase: 'https://ehr.example/fhir/R4/',
    now: new Date('2024-05-06T07:08:09.000Z'),
    documentId: 'd0c00000-0000-4000-8000-000000000000',
    compositionId: 'c0c00000-0000-4000-8000-000000000000',
  };
  const observation = (id: string, code: string, at: string): Observation => ({
    resourceType: 'Observation',
    id,
    status: 'final',
    code: { coding: [{ system: 'http://loinc.org', code }] },
    subject: { reference: 'Patient/p' },
    effectiveDateTime: at,
  });

  it('keeps the three required sections, empty ones with a reason, and leaves out empty others', () => {
    const sections = summarySections.map((definition) => ({ definition, resources: [], withheld: false }));
    const bundle = buildPatientSummary({ patient, sections, referenced: [] }, options);
    expect(bundle.identifier).toEqual({ system: 'urn:ietf:rfc:3986', value: `urn:uuid:${options.documentId}` });
    expect(bundle.timestamp).toBe('2024-05-06T07:08:09.000Z');
    const composition = bundle.entry?.[0]?.resource as { section: { code: { coding: { code: string }[] } }[] };
    expect(composition.section.map((s) => s.code.coding[0].code)).toEqual(['48765-2', '10160-0', '11450-4']);
    expect(bundle.entry?.map((e) => e.fullUrl)).toEqual([
      `https://ehr.example/fhir/R4/Composition/${options.compositionId}`,
      'https://ehr.example/fhir/R4/Patient/p',
    ]);
    const text = (bundle.entry?.[0]?.resource as { text: { div: string } }).text.div;
    expect(text).toContain('&lt;b&gt;Doe&lt;/b&gt;');
    expect(narrativeActiveContent(text)).toBeUndefined();
  });

  it('holds each resource once, even when two sections list it', () => {
    const shared = observation('o1', '8867-4', '2024-01-01');
    const [results, vitals] = ['results', 'vitalSigns'].map((key) => ({
      definition: summarySections.find((s) => s.key === key)!,
      resources: [shared] as Resource[],
      withheld: false,
    }));
    const bundle = buildPatientSummary({ patient, sections: [results, vitals], referenced: [] }, options);
    expect(bundle.entry?.map((e) => `${e.resource?.resourceType}/${e.resource?.id}`)).toEqual([
      `Composition/${options.compositionId}`,
      'Patient/p',
      'Observation/o1',
    ]);
  });

  it('picks the newest reading of each measurement', () => {
    const found = [
      observation('new-pulse', '8867-4', '2024-03-01'),
      observation('weight', '29463-7', '2024-02-01'),
      observation('old-pulse', '8867-4', '2024-01-01'),
    ];
    expect(latestPerCode(found).map((r) => r.id)).toEqual(['new-pulse', 'weight']);
  });
});
