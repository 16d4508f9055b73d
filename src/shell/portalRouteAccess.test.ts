import { describe, expect, it } from 'vitest';
import { portalRouteAccess } from './portalRouteAccess';

const her = 'p-123';

describe('portalRouteAccess', () => {
  it.each([
    ['/', 'her home (messages)'],
    ['/messages', 'her messages under their own name'],
    ['/security', 'Password and security'],
    ['/security/', 'with a trailing slash'],
    [`/Patient/${her}`, 'My record'],
    [`/Patient/${her}/timeline`, 'a tab of her record'],
    [`/Patient/${her}/MedicationRequest`, 'a list in her record'],
    [`/Patient/${her}/ServiceRequest/sr1`, 'an order of hers opened from her record'],
    [`/Patient/${her}/ServiceRequest/sr1/history`, 'its history'],
    [`/Patient/${her}/_history/3`, 'a version of her record (timeline link)'],
    ['/Encounter/e1', 'a reference on her record (ValueDisplay links to /{Type}/{id})'],
    ['/Encounter/e1/details', "that record's Details tab"],
    ['/Encounter/e1/history', "that record's History tab"],
    ['/Encounter/e1/_history/2', 'a version from its history table'],
  ])('lets her open %s (%s)', (path) => {
    expect(portalRouteAccess(path, her)).toBe('portal');
  });

  it.each([
    ['/tasks', 'the care team’s work list'],
    ['/onboarding', 'the New patient form'],
    ['/dosespot', 'e-prescribing'],
    ['/admin/project', 'project administration'],
    ['/communication/c1', 'the care team’s conversation by a message'],
    ['/Patient', 'the patient list'],
    ['/Observation', 'a resource console list'],
    ['/Observation/new', 'a create form'],
    ['/Patient/new', 'a new patient form'],
    ['/Patient/someone-else', 'another patient’s chart'],
    ['/Patient/someone-else/timeline', 'a tab of another patient’s chart'],
    ['/Patient/someone-else/_history/1', 'a version of another patient'],
    ['/Encounter/e1/history/extra', 'no screen of a record'],
    [`/Patient/${her}/Task`, 'the care team’s tasks on her chart (a hidden tab)'],
    [`/Patient/${her}/Task/t1`, 'one of those tasks'],
    [`/Patient/${her}/encounter`, 'the visit note'],
    [`/Patient/${her}/communication`, 'the care team’s conversation tab'],
    [`/Patient/${her}/edit`, 'editing her demographics'],
    [`/Patient/${her}/QuestionnaireResponse/qr1/edit`, 'editing a record of hers'],
    ['/QuestionnaireResponse/qr1/edit', 'a record’s Edit tab'],
    ['/QuestionnaireResponse/qr1/json', 'a record’s JSON tab'],
    ['/some/client/route', 'an unknown path'],
  ])('shows the care team page at %s (%s)', (path) => {
    expect(portalRouteAccess(path, her)).toBe('care-team');
  });

  it('without a known patient id no chart is hers', () => {
    expect(portalRouteAccess(`/Patient/${her}`, undefined)).toBe('care-team');
  });
});
