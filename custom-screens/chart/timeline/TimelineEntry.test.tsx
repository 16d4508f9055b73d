import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Communication, DiagnosticReport, Media, Patient, Task } from '@medplum/fhirtypes';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { FhirClient } from '../../../data-provider/client';
import { FakeFetch, jsonResponse } from '../../../data-provider/client/fakeFetch';
import { FhirClientContext } from '../../../src/resources/useFhirClient';
import { TimelineEntry } from './TimelineEntry';

const author = { reference: 'Practitioner/p1', display: 'Dr. Alice Carter' };

function renderEntry(resource: Task | Communication | Patient | DiagnosticReport | Media, previous?: Patient) {
  const fake = new FakeFetch();
  fake.on('GET', /\/fhir\/R4\/Patient\/pat1$/, () =>
    jsonResponse({ resourceType: 'Patient', id: 'pat1', name: [{ given: ['Jena'], family: 'Terry' }] }),
  );
  const client = new FhirClient({ baseUrl: 'https://hearth.test/', fetch: fake.fetch, autoBatchTime: 0 });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <FhirClientContext.Provider value={client}>
        <MemoryRouter>
          <TimelineEntry item={{ key: 'k', resource, previous }} patientId="pat1" />
        </MemoryRouter>
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
  return screen.getByRole('article');
}

describe('TimelineEntry: who is named beside the date', () => {
  it('names the last writer of an entry dated by its own field as the one who last changed it', () => {
    const entry = renderEntry({
      resourceType: 'Task',
      id: 't1',
      status: 'on-hold',
      intent: 'order',
      code: { text: 'Call about lab results' },
      authoredOn: '2026-11-25T09:00:00.000Z',
      meta: { lastUpdated: '2026-11-28T07:05:00.000Z', author },
    });
    expect(entry).toHaveTextContent('last changed by Dr. Alice Carter');
  });

  it('keeps the date on one line, so only the byline beside it wraps', () => {
    const entry = renderEntry({
      resourceType: 'Task',
      id: 't3',
      status: 'ready',
      intent: 'order',
      code: { text: 'Call about lab results' },
      authoredOn: '2026-11-25T09:00:00.000Z',
      meta: { lastUpdated: '2026-11-28T07:05:00.000Z', author },
    });
    const time = entry.querySelector('time');
    expect(time).toHaveAttribute('datetime', '2026-11-25T09:00:00.000Z');
    expect(time).toHaveTextContent(/2026/);
    expect(time).not.toHaveTextContent('Alice');
    expect(getComputedStyle(time!).whiteSpace).toBe('nowrap');
  });

  it('names the writer plainly when the entry is dated by that very write', () => {
    const entry = renderEntry({
      resourceType: 'Task',
      id: 't2',
      status: 'ready',
      intent: 'order',
      code: { text: 'Review readings' },
      meta: { lastUpdated: '2026-11-28T07:05:00.000Z', author },
    });
    expect(entry).toHaveTextContent('· Dr. Alice Carter');
    expect(entry).not.toHaveTextContent('last changed by');
  });

  it('names the clinician an imported report names, not only whoever imported it', () => {
    const entry = renderEntry({
      resourceType: 'DiagnosticReport',
      id: 'dr9',
      status: 'final',
      code: { text: 'Lipid Panel' },
      subject: { reference: 'Patient/pat1' },
      issued: '2011-06-04T10:00:00Z',
      performer: [{ reference: 'Practitioner/p9', display: 'Dr. Jimmie Harris' }],
      meta: { lastUpdated: '2026-11-28T07:05:00.000Z', author },
    });
    expect(entry).toHaveTextContent('Dr. Jimmie Harris · last changed by Dr. Alice Carter');
  });

  it('never names the last writer of a message: the title names its sender', () => {
    const entry = renderEntry({
      resourceType: 'Communication',
      id: 'c1',
      status: 'completed',
      sent: '2026-11-27T16:00:00.000Z',
      sender: { reference: 'Patient/pat1', display: 'Wendy Littel' },
      payload: [{ contentString: 'My blood pressure was 150/95 this morning' }],
      meta: { lastUpdated: '2026-11-28T07:05:00.000Z', author },
    });
    expect(entry).not.toHaveTextContent('Alice Carter');
  });
});

// Reports as the Synthea R4 sample bundles and newer Synthea write them (synthetic data, Apache-2.0).
describe('TimelineEntry: what an imported report says', () => {
  it('names the results of a lab panel instead of a bare "Created"', () => {
    const entry = renderEntry({
      resourceType: 'DiagnosticReport',
      id: 'dr1',
      status: 'final',
      code: { coding: [{ system: 'http://loinc.org', code: '57698-3', display: 'Lipid Panel' }], text: 'Lipid Panel' },
      subject: { reference: 'Patient/pat1' },
      issued: '1986-11-01T19:20:06.629+00:00',
      result: [
        { reference: 'Observation/1', display: 'Total Cholesterol' },
        { reference: 'Observation/2', display: 'Triglycerides' },
      ],
    });
    expect(entry).toHaveTextContent('2 results: Total Cholesterol, Triglycerides');
    expect(entry).not.toHaveTextContent('Created');
  });

  it("shows a note's text, decoded, when the report is opened", async () => {
    const note =
      '1978-01-10\n\n# Chief Complaint\nNo complaints.\n\n# Plan\nRecheck BP 140/90 in 2 weeks; temp 37.8 °C.\n';
    const entry = renderEntry({
      resourceType: 'DiagnosticReport',
      id: 'dr2',
      status: 'final',
      code: { coding: [{ system: 'http://loinc.org', code: '34117-2', display: 'History and physical note' }] },
      subject: { reference: 'Patient/pat1' },
      issued: '1978-01-10T01:51:36.000-04:00',
      presentedForm: [{ contentType: 'text/plain; charset=utf-8', data: Buffer.from(note, 'utf8').toString('base64') }],
    });
    expect(entry).toHaveTextContent('No complaints. Recheck BP 140/90');
    await userEvent.click(within(entry).getByRole('button', { name: 'Show report' }));
    expect(
      await within(entry).findByText(/# Plan\s+Recheck BP 140\/90 in 2 weeks; temp 37\.8 °C\./),
    ).toBeInTheDocument();
    expect(entry).not.toHaveTextContent(/[A-Za-z0-9+/]{40,}/);
  });
});

// A 320-character URL sent in the chat ran past its card and made the chart (and a phone's portal
// page, 2308 px) scroll sideways. Text wraps where overflow-wrap allows; "anywhere" is the value that
// also shrinks the card's min-content width, which the chart's flex columns size themselves by.
describe('TimelineEntry: one unbroken word stays inside its card', () => {
  // overflow-wrap is inherited in CSS, but happy-dom computes no inheritance: look up the chain.
  // The legacy word-break: break-word is defined as overflow-wrap: anywhere, so it counts as one.
  const wrapOf = (element: Element): string => {
    for (let at: Element | null = element; at; at = at.parentElement) {
      const style = getComputedStyle(at);
      if (style.wordBreak === 'break-word') return 'anywhere';
      if (style.overflowWrap && style.overflowWrap !== 'normal') return style.overflowWrap;
    }
    return 'normal';
  };
  const longUrl = `https://example.org/${'a'.repeat(300)}`;

  it('breaks a long URL in a message anywhere, and lets the card shrink', () => {
    const entry = renderEntry({
      resourceType: 'Communication',
      id: 'c2',
      status: 'completed',
      sent: '2026-11-27T16:00:00.000Z',
      sender: { reference: 'Practitioner/p1', display: 'Dr. Alice Carter' },
      payload: [{ contentString: longUrl }],
    });
    expect(wrapOf(within(entry).getByText(longUrl))).toBe('anywhere');
    expect(getComputedStyle(entry).minWidth).toBe('0');
  });

  it('breaks a long file name in the title and on its button', () => {
    const name = `scan-${'b'.repeat(120)}.pdf`;
    const entry = renderEntry({
      resourceType: 'Media',
      id: 'm2',
      status: 'completed',
      content: { contentType: 'application/pdf', title: name, url: 'Binary/b2' },
    });
    expect(wrapOf(within(entry).getByRole('link', { name }))).toBe('anywhere');
    expect(wrapOf(within(entry).getByRole('button', { name: `View ${name}` }))).toBe('anywhere');
  });

  it('breaks a long value in a record change table', () => {
    const before: Patient = { resourceType: 'Patient', id: 'pat1', meta: { versionId: '1' } };
    const after: Patient = {
      resourceType: 'Patient',
      id: 'pat1',
      meta: { versionId: '2' },
      telecom: [{ system: 'url', value: longUrl }],
    };
    const entry = renderEntry(after, before);
    const cell = within(within(entry).getByRole('table', { name: 'Changes' })).getByText(new RegExp(`a{300}`));
    expect(wrapOf(cell)).toBe('anywhere');
  });
});

describe('TimelineEntry: an uploaded file', () => {
  it('is named by its file name, not by its reference', () => {
    const entry = renderEntry({
      resourceType: 'Media',
      id: '237d7cb3-0d3c-4b8e-9a55-1c2f3e4d5a6b',
      status: 'completed',
      content: { contentType: 'application/pdf', title: 'discharge-letter.pdf', url: 'Binary/b1' },
    });
    expect(within(entry).getByRole('link', { name: 'discharge-letter.pdf' })).toBeInTheDocument();
    expect(entry).toHaveAttribute('aria-label', 'Media: discharge-letter.pdf');
    expect(entry).not.toHaveTextContent('Media/237d7cb3');
  });
});
