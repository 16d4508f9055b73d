import { render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { DiagnosticReport, Reference, Resource } from '@medplum/fhirtypes';
import { FhirClient } from '../../data-provider/client';
import { EXTERNAL_FILE_LABEL, UNSUPPORTED_FILE_LABEL } from '../datatypes/AttachmentLink';
import { DiagnosticReportView, isCritical } from './DiagnosticReportView';
import { resultFlag } from './resultFlag';
import { FhirClientContext } from './useFhirClient';

const stored: Record<string, Resource> = {
  'Patient/p1': { resourceType: 'Patient', id: 'p1', name: [{ given: ['Eve'], family: 'Doe' }] },
  'Observation/o1': {
    resourceType: 'Observation',
    id: 'o1',
    status: 'final',
    code: { text: 'Potassium' },
    valueQuantity: { value: 6.9, unit: 'mmol/L' },
    interpretation: [{ coding: [{ code: 'HH' }] }],
  },
  'Observation/o2': {
    resourceType: 'Observation',
    id: 'o2',
    status: 'final',
    code: { text: 'Sodium' },
    valueQuantity: { value: 140, unit: 'mmol/L' },
    interpretation: [{ coding: [{ code: 'N' }] }],
  },
  'Observation/o5': {
    resourceType: 'Observation',
    id: 'o5',
    status: 'final',
    code: { text: 'Glucose' },
    valueQuantity: { value: 132, unit: 'mg/dL' },
    interpretation: [{ coding: [{ code: 'H', display: 'High' }] }],
  },
  'Observation/o3': {
    resourceType: 'Observation',
    id: 'o3',
    status: 'final',
    code: { text: 'Chloride' },
    dataAbsentReason: { text: 'Sample hemolyzed' },
  },
  'Observation/o4': {
    resourceType: 'Observation',
    id: 'o4',
    status: 'final',
    code: { text: 'Urine dipstick' },
    component: [
      { code: { text: 'Protein' }, valueCodeableConcept: { text: 'Trace' } },
      { code: { text: 'pH' }, valueQuantity: { value: 6 } },
    ],
  },
  'Specimen/s1': {
    resourceType: 'Specimen',
    id: 's1',
    collection: { collectedDateTime: '2024-01-02T03:04:05Z' },
    receivedTime: '2024-01-02T05:00:00Z',
  },
};

// Which attachment addresses are files of the server, as the real client of https://ehr.test/ judges them.
const server = new FhirClient({ baseUrl: 'https://ehr.test/', autoBatchTime: 0 });
const client = {
  readReference: async (reference: Reference) => stored[reference.reference as string],
  fileAddress: (url: string) => server.fileAddress(url),
} as unknown as FhirClient;

const report: DiagnosticReport = {
  resourceType: 'DiagnosticReport',
  id: 'r1',
  status: 'final',
  code: { text: 'Electrolytes' },
  subject: { reference: 'Patient/p1' },
  performer: [{ display: 'Lab One' }],
  issued: '2024-01-02T06:00:00Z',
  result: [
    { reference: 'Observation/o1' },
    { reference: 'Observation/o2' },
    { reference: 'Observation/o3' },
    { reference: 'Observation/o4' },
    { reference: 'Observation/o5' },
  ],
  specimen: [{ reference: 'Specimen/s1' }],
};

describe('DiagnosticReportView', () => {
  it('shows Subject, Performer, Issued, Status, Specimens and the results with critical rows flagged', async () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <FhirClientContext.Provider value={client}>
          <DiagnosticReportView report={report} />
        </FhirClientContext.Provider>
      </QueryClientProvider>,
    );
    expect(await screen.findByText('Eve Doe')).toBeInTheDocument();
    expect(screen.getByText('Lab One')).toBeInTheDocument();
    expect(await screen.findByText(/Collected: .*2024.*Received: .*2024/)).toBeInTheDocument();
    const potassium = (await screen.findByText('Potassium')).closest('tr') as HTMLElement;
    expect(potassium).toHaveAttribute('data-critical', 'true');
    expect(within(potassium).getByText('Critical')).toBeInTheDocument();
    const sodium = screen.getByText('Sodium').closest('tr') as HTMLElement;
    expect(sodium).not.toHaveAttribute('data-critical');
    expect(sodium).not.toHaveAttribute('data-flag');
    // A high value stands out in bold with an arrow, without the critical row's red.
    const glucose = (await screen.findByText('Glucose')).closest('tr') as HTMLElement;
    expect(glucose).toHaveAttribute('data-flag', 'high');
    expect(glucose).not.toHaveAttribute('data-critical');
    expect(within(glucose).getByText('↑')).toBeInTheDocument();
    expect(getComputedStyle(within(glucose).getByText('132 mg/dL')).fontWeight).toBe('700');
  });

  it('tells high and low from the interpretation, critical first', () => {
    const observation = (...codes: string[]) => ({
      resourceType: 'Observation' as const,
      status: 'final' as const,
      code: {},
      interpretation: codes.map((code) => ({ coding: [{ code }] })),
    });
    expect(resultFlag(observation('H'))).toBe('high');
    expect(resultFlag(observation('HU'))).toBe('high');
    expect(resultFlag(observation('L'))).toBe('low');
    expect(resultFlag(observation('<'))).toBe('low');
    expect(resultFlag(observation('H', 'HH'))).toBe('critical');
    expect(resultFlag(observation('N'))).toBeUndefined();
    expect(resultFlag(observation())).toBeUndefined();
  });

  it('shows the presented form decoded: a note as its text (UTF-8), a file as a link', async () => {
    const note = 'Impression: mild anemia. Temp 38.2 °C — patient’s fever resolved.';
    render(
      <QueryClientProvider client={new QueryClient()}>
        <FhirClientContext.Provider value={client}>
          <DiagnosticReportView
            report={{
              ...report,
              result: [],
              presentedForm: [
                { contentType: 'text/plain; charset=utf-8', data: Buffer.from(note, 'utf8').toString('base64') },
                { contentType: 'application/pdf', title: 'Signed report.pdf', url: 'https://ehr.test/storage/r1.pdf' },
              ],
            }}
          />
        </FhirClientContext.Provider>
      </QueryClientProvider>,
    );
    expect(await screen.findByText(note)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Signed report.pdf' })).toHaveAttribute(
      'href',
      'https://ehr.test/storage/r1.pdf',
    );
  });

  it('links no presented form whose address is not a file of the server: another site is labelled, javascript: is text', async () => {
    const { container } = render(
      <QueryClientProvider client={new QueryClient()}>
        <FhirClientContext.Provider value={client}>
          <DiagnosticReportView
            report={{
              ...report,
              result: [],
              presentedForm: [
                { contentType: 'application/pdf', title: 'Signed report.pdf', url: 'https://evil.example/r1.pdf' },
                { contentType: 'application/pdf', title: 'Scan.pdf', url: 'javascript:alert(document.domain)' },
                { contentType: 'application/pdf', title: 'Logout.pdf', url: 'https://ehr.test/oauth2/logout' },
              ],
            }}
          />
        </FhirClientContext.Provider>
      </QueryClientProvider>,
    );
    expect(await screen.findByText('Signed report.pdf')).toBeInTheDocument();
    for (const name of ['Signed report.pdf', 'Scan.pdf', 'Logout.pdf']) {
      expect(screen.queryByRole('link', { name })).not.toBeInTheDocument();
    }
    const external = screen.getByRole('link', { name: 'evil.example/r1.pdf' });
    expect(external).toHaveAttribute('href', 'https://evil.example/r1.pdf');
    expect(external).toHaveAttribute('rel', 'noopener noreferrer');
    expect(external).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('link', { name: 'ehr.test/oauth2/logout' })).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getAllByText(new RegExp(EXTERNAL_FILE_LABEL))).toHaveLength(2);
    expect(screen.getByText(UNSUPPORTED_FILE_LABEL)).toBeInTheDocument();
    expect(container.querySelector('[href^="javascript" i]')).toBeNull();
    expect(container.innerHTML).not.toContain('javascript:');
  });

  it('says why a result has no value and shows coded components, not only quantities', async () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <FhirClientContext.Provider value={client}>
          <DiagnosticReportView report={report} />
        </FhirClientContext.Provider>
      </QueryClientProvider>,
    );
    const chloride = (await screen.findByText('Chloride')).closest('tr') as HTMLElement;
    expect(within(chloride).getByText('Sample hemolyzed')).toBeInTheDocument();
    const dipstick = screen.getByText('Urine dipstick').closest('tr') as HTMLElement;
    expect(within(dipstick).getByText('Protein: Trace; pH: 6')).toBeInTheDocument();
  });

  it('flags AA, LL, HH and A as critical', () => {
    for (const code of ['AA', 'LL', 'HH', 'A']) {
      expect(
        isCritical({
          resourceType: 'Observation',
          status: 'final',
          code: {},
          interpretation: [{ coding: [{ code }] }],
        }),
      ).toBe(true);
    }
    expect(
      isCritical({
        resourceType: 'Observation',
        status: 'final',
        code: {},
        interpretation: [{ coding: [{ code: 'H' }] }],
      }),
    ).toBe(false);
  });
});
