import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AccessPolicy } from '@medplum/fhirtypes';
import { clinicianPolicy, frontDeskPolicy, renderChartAs, requestedTypes } from './chartAccessTestSupport';

const sidebar = () => screen.getByRole('complementary', { name: 'Patient summary' });
const tabLabels = () =>
  within(screen.getByRole('tablist', { name: 'Chart tabs' }))
    .getAllByRole('tab')
    .map((tab) => tab.textContent);
const ALL_TABS = [
  'Timeline',
  'Edit',
  'Encounter',
  'Tasks',
  'Meds',
  'Labs',
  'Devices',
  'Reports',
  'Documents',
  'Appointments',
  'Care Plans',
  'Communications',
];

describe('the chart under an access policy', { timeout: 30_000 }, () => {
  it('shows the front desk only what their policy lets them see and do, and asks for nothing else', async () => {
    const fake = renderChartAs({ policy: frontDeskPolicy }, '/Patient/p1');
    const timeline = await screen.findByTestId('timeline');
    await within(timeline).findByText('Review lab order');
    await within(sidebar()).findByRole('link', { name: '0 upcoming appointments' });
    // Every section has had its answer (a refused search's alert came after the others had loaded).
    await waitFor(() => expect(within(sidebar()).queryByText('Loading...')).not.toBeInTheDocument());

    // No Forbidden alert anywhere, and no button to add what they may not write.
    expect(screen.queryAllByText(/Forbidden/)).toEqual([]);
    expect(screen.queryAllByRole('alert')).toEqual([]);
    for (const action of ['Add allergy', 'Add problem', 'Add medication', 'Record vitals', 'Edit smoking status'])
      expect(screen.queryByRole('button', { name: action })).not.toBeInTheDocument();
    expect(within(sidebar()).queryByRole('heading', { name: 'Allergies' })).not.toBeInTheDocument();
    // One quiet line says what is left out, rather than an alarm for each section.
    expect(
      within(sidebar()).getByText(
        'Not shown under your access policy: Allergies, Problem List, Medications, Sexual Orientation, Smoking Status, Vitals.',
      ),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Chart' })).getByText(
        'Not shown under your access policy: devices, device requests, reports, media, orders.',
      ),
    ).toBeInTheDocument();

    // Only his tabs: no visit note (no Questionnaire), no clinical lists.
    expect(tabLabels()).toEqual(['Timeline', 'Edit', 'Tasks', 'Appointments', 'Communications']);
    // Not one search his policy would refuse was sent.
    expect(requestedTypes(fake)).toEqual(['Appointment', 'Communication', 'Encounter', 'Patient', 'Task']);
  });

  it('answers a link to a tab the policy leaves out calmly, without asking the server', async () => {
    const fake = renderChartAs({ policy: frontDeskPolicy }, '/Patient/p1/MedicationRequest');
    expect(await screen.findByText('Your access policy does not include Meds.')).toBeInTheDocument();
    await within(sidebar()).findByRole('link', { name: '0 upcoming appointments' });
    await waitFor(() => expect(within(sidebar()).queryByText('Loading...')).not.toBeInTheDocument());
    expect(screen.queryAllByText(/Forbidden/)).toEqual([]);
    expect(screen.queryByRole('link', { name: 'New' })).not.toBeInTheDocument();
    expect(requestedTypes(fake)).not.toContain('MedicationRequest');
  });

  it('answers a link to one record of a type the policy leaves out calmly, without reading it', async () => {
    const fake = renderChartAs({ policy: frontDeskPolicy }, '/Patient/p1/AllergyIntolerance/a1');
    expect(await screen.findByText('Your access policy does not include AllergyIntolerance.')).toBeInTheDocument();
    await within(sidebar()).findByRole('link', { name: '0 upcoming appointments' });
    await waitFor(() => expect(within(sidebar()).queryByText('Loading...')).not.toBeInTheDocument());
    expect(screen.queryAllByText(/Forbidden/)).toEqual([]);
    expect(requestedTypes(fake)).not.toContain('AllergyIntolerance');
  });

  it('does not open the visit note for a policy without what the note needs', async () => {
    const fake = renderChartAs({ policy: frontDeskPolicy }, '/Patient/p1/encounter');
    expect(await screen.findByText('Your access policy does not include Encounter.')).toBeInTheDocument();
    await within(sidebar()).findByRole('link', { name: '0 upcoming appointments' });
    expect(requestedTypes(fake)).not.toContain('Questionnaire');
  });

  it('shows a section the policy lets them read but not write without its add and edit', async () => {
    const readOnlyAllergies: AccessPolicy = {
      ...frontDeskPolicy,
      resource: [...(frontDeskPolicy.resource ?? []), { resourceType: 'AllergyIntolerance', readonly: true }],
    };
    renderChartAs({ policy: readOnlyAllergies }, '/Patient/p1');
    const allergy = await within(sidebar()).findByRole('button', { name: /Allergy to penicillin/ });
    expect(allergy).toBeDisabled();
    expect(allergy).not.toHaveAccessibleName(/Edit allergy/);
    expect(within(sidebar()).getByRole('heading', { name: 'Allergies' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add allergy' })).not.toBeInTheDocument();
    expect(within(sidebar()).getByText(/Not shown under your access policy: Problem List,/)).toBeInTheDocument();
  });

  it.each([
    ['a clinician’s policy', { policy: clinicianPolicy }],
    ['no policy (a project admin)', {}],
    ['a super admin, whatever their policy', { policy: frontDeskPolicy, superAdmin: true }],
  ])('still shows everything under %s', async (_name, caller) => {
    const fake = renderChartAs(caller, '/Patient/p1');
    await within(await screen.findByTestId('timeline')).findByText('Complete blood count');
    expect(await within(sidebar()).findByRole('button', { name: /Edit allergy Allergy to penicillin/ })).toBeEnabled();
    for (const action of ['Add allergy', 'Add problem', 'Add medication', 'Record vitals'])
      expect(screen.getByRole('button', { name: action })).toBeInTheDocument();
    expect(tabLabels()).toEqual(ALL_TABS);
    expect(screen.queryByText(/Not shown under your access policy/)).not.toBeInTheDocument();
    expect(requestedTypes(fake)).toEqual(
      expect.arrayContaining(['AllergyIntolerance', 'Condition', 'MedicationRequest', 'Observation', 'Device']),
    );
  });
});
