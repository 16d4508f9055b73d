import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Bundle, Patient, Practitioner, PractitionerRole } from '@medplum/fhirtypes';
import { patient, renderSummary, summaryServer } from './summaryTestSupport';

// As Synthea writes them (synthetic data, Apache-2.0): the patient points at the practitioner by
// reference alone, without a display.
const yundt: Practitioner = {
  resourceType: 'Practitioner',
  id: '694a34a3-af6e-49a5-89e3-adc7235bc923',
  identifier: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: '110' }],
  name: [{ family: 'Yundt', given: ['Keeley'], prefix: ['Dr.'] }],
};
const withGp = (reference: string, version = '1'): Patient => ({
  ...patient,
  meta: { versionId: version },
  generalPractitioner: [{ reference }],
});
const header = () => screen.getByRole('banner');

describe('PatientSummary provider line', { timeout: 30_000 }, () => {
  it('names a GP referenced without a display, looked up in the summary’s one batch', async () => {
    const server = summaryServer({ autoBatchTime: 100 });
    const imported = withGp(`Practitioner/${yundt.id}`);
    server.store.set('Patient', [imported]);
    server.included.set('Patient', [yundt]);
    renderSummary(server, { patient: imported });
    expect(within(header()).getByText('Loading provider...')).toBeInTheDocument();
    expect(await within(header()).findByText('Keeley Yundt')).toBeInTheDocument();
    expect(header()).not.toHaveTextContent('No provider');
    const batches = server.fake.callsTo('POST', /\/fhir\/R4\/?$/);
    expect(batches).toHaveLength(1);
    const urls = ((JSON.parse(batches[0]!.body as string) as Bundle).entry ?? []).map((e) =>
      decodeURIComponent(e.request?.url ?? ''),
    );
    expect(urls).toContainEqual(expect.stringMatching(/^Patient\?_id=p1&_include=Patient:general-practitioner&/));
    expect(server.fake.calls.filter((c) => c.method === 'GET')).toHaveLength(0);
  });

  it('names a GP given as a role by the practitioner who holds it', async () => {
    const server = summaryServer();
    const role: PractitionerRole = {
      resourceType: 'PractitionerRole',
      id: 'role1',
      practitioner: { reference: `Practitioner/${yundt.id}` },
      organization: { reference: 'Organization/o1' },
      code: [{ text: 'General practitioner' }],
    };
    const imported = withGp('PractitionerRole/role1');
    server.store.set('Patient', [imported]);
    server.included.set('Patient', [role, yundt, { resourceType: 'Organization', id: 'o1', name: 'Hillside Clinic' }]);
    renderSummary(server, { patient: imported });
    expect(await within(header()).findByText('Keeley Yundt')).toBeInTheDocument();
  });

  it('names an organisation as GP, and shows a reference’s own display without waiting', async () => {
    const server = summaryServer();
    const clinic = withGp('Organization/o1');
    server.store.set('Patient', [clinic]);
    server.included.set('Patient', [{ resourceType: 'Organization', id: 'o1', name: 'Hillside Clinic' }]);
    const { showPatient } = renderSummary(server, { patient: clinic });
    expect(await within(header()).findByText('Hillside Clinic')).toBeInTheDocument();
    showPatient({ ...clinic, generalPractitioner: [{ reference: 'Practitioner/x', display: 'Dr. Alice Carter' }] });
    expect(within(header()).getByText('Dr. Alice Carter')).toBeInTheDocument();
  });

  it('says the provider is not available, never its id, when the reference cannot be read', async () => {
    const server = summaryServer();
    // Deleted, or not permitted: the server leaves it out of the included resources.
    const orphaned = withGp('Practitioner/deleted-9f3c');
    server.store.set('Patient', [orphaned]);
    renderSummary(server, { patient: orphaned });
    expect(await within(header()).findByText('Provider not available')).toBeInTheDocument();
    expect(header()).not.toHaveTextContent('deleted-9f3c');
    expect(header()).not.toHaveTextContent('No provider');
    // Nothing is looked up again: the look-up followed this very reference.
    expect(server.fake.callsTo('GET', /\/fhir\/R4\/Patient\?/)).toHaveLength(1);
  });

  it('says the provider is not available when the look-up fails', async () => {
    const server = summaryServer();
    server.failSearches('Patient');
    const imported = withGp(`Practitioner/${yundt.id}`);
    renderSummary(server, { patient: imported });
    expect(await within(header()).findByText('Provider not available')).toBeInTheDocument();
  });

  it('looks up a GP the patient was given after the summary loaded (a save in the Edit tab)', async () => {
    const server = summaryServer();
    const before = withGp('Practitioner/old', '1');
    server.store.set('Patient', [before]);
    server.included.set('Patient', [
      { resourceType: 'Practitioner', id: 'old', name: [{ family: 'Labadie', given: ['Rebecca'] }] },
    ]);
    const { showPatient } = renderSummary(server, { patient: before });
    expect(await within(header()).findByText('Rebecca Labadie')).toBeInTheDocument();
    const after = withGp(`Practitioner/${yundt.id}`, '2');
    server.store.set('Patient', [after]);
    server.included.set('Patient', [yundt]);
    showPatient(after);
    expect(await within(header()).findByText('Keeley Yundt')).toBeInTheDocument();
    expect(server.fake.callsTo('GET', /\/fhir\/R4\/Patient\?/)).toHaveLength(2);
  });
});

describe('PatientSummary header for a patient who has died', { timeout: 30_000 }, () => {
  it('says Deceased beside the name, with the date of death in the birth line', async () => {
    const server = summaryServer();
    const died: Patient = { ...patient, deceasedDateTime: '2024-03-03' };
    server.store.set('Patient', [died]);
    renderSummary(server, { patient: died });
    expect(await within(header()).findByText('Deceased')).toBeInTheDocument();
    expect(header()).toHaveTextContent('died 3 Mar 2024');
  });

  it('says nothing of the kind for deceasedBoolean false (imports write it for the living)', async () => {
    const server = summaryServer();
    const alive: Patient = { ...patient, deceasedBoolean: false };
    server.store.set('Patient', [alive]);
    renderSummary(server, { patient: alive });
    expect(await within(header()).findByText('Maria Lopez')).toBeInTheDocument();
    expect(within(header()).queryByText('Deceased')).not.toBeInTheDocument();
  });
});
