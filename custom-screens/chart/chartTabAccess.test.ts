import { describe, expect, it } from 'vitest';
import type { AccessPolicy } from '@medplum/fhirtypes';
import { chartTabsFor } from '../../config/clinical/chartTabs';
import { chartAccessOf } from './chartAccess';
import { mayOpenChartTab } from './chartTabAccess';
import { frontDeskPolicy } from './accessPolicyFixtures';

const policyOf = (...resource: NonNullable<AccessPolicy['resource']>): AccessPolicy => ({
  resourceType: 'AccessPolicy',
  resource,
});
const tabsUnder = (policy: AccessPolicy | undefined, superAdmin = false) =>
  chartTabsFor({ ePrescribing: false, patientView: false })
    .filter((tab) => mayOpenChartTab(tab, chartAccessOf({ policy, superAdmin })))
    .map((tab) => tab.label);

describe('the chart tabs an access policy opens', () => {
  it('gives the front desk the tabs they can search, and no visit note', () => {
    expect(tabsUnder(frontDeskPolicy)).toEqual(['Timeline', 'Edit', 'Tasks', 'Appointments', 'Communications']);
  });

  it('offers the visit note only with all it reads and writes', () => {
    const noteNeeds = [
      { resourceType: 'Patient' },
      { resourceType: 'Questionnaire', readonly: true },
      { resourceType: 'QuestionnaireResponse' },
      { resourceType: 'Task' },
    ];
    expect(tabsUnder(policyOf(...noteNeeds))).toContain('Encounter');
    // Able to read the questionnaire and the drafts, but not to save the note.
    expect(
      tabsUnder(
        policyOf(...noteNeeds.slice(0, 2), { resourceType: 'QuestionnaireResponse', readonly: true }, noteNeeds[3]!),
      ),
    ).not.toContain('Encounter');
    // Nor without the follow-up task it creates.
    expect(tabsUnder(policyOf(...noteNeeds.slice(0, 3)))).not.toContain('Encounter');
  });

  it('offers Edit only to those who may write the patient', () => {
    expect(tabsUnder(policyOf({ resourceType: 'Patient', readonly: true }))).toEqual(['Timeline']);
    // Editing a stored patient is an update: a list granting update (and no create) is enough.
    expect(tabsUnder(policyOf({ resourceType: 'Patient', interaction: ['read', 'search', 'update'] }))).toEqual([
      'Timeline',
      'Edit',
    ]);
    expect(tabsUnder(policyOf({ resourceType: 'Patient', interaction: ['read', 'search', 'create'] }))).toEqual([
      'Timeline',
    ]);
  });

  it('opens every tab without a policy, and to a super admin whatever their policy', () => {
    const all = chartTabsFor({ ePrescribing: false, patientView: false }).map((tab) => tab.label);
    expect(tabsUnder(undefined)).toEqual(all);
    expect(tabsUnder(frontDeskPolicy, true)).toEqual(all);
  });
});
