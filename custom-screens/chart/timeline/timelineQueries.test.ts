import { describe, expect, it } from 'vitest';
import { chartAccessOf } from '../chartAccess';
import { frontDeskPolicy, patientPortalPolicy } from '../accessPolicyFixtures';
import { timelinePlan } from './timelineQueries';

const typesOf = (searches: { resourceType: string }[]) => searches.map((search) => search.resourceType);

describe('what the timeline asks for', () => {
  it('everything for the care team without a policy', () => {
    const plan = timelinePlan({ patientView: false }, chartAccessOf({ policy: undefined, superAdmin: false }));
    expect(typesOf(plan.asked)).toEqual([
      'Communication',
      'Device',
      'DeviceRequest',
      'DiagnosticReport',
      'Media',
      'ServiceRequest',
      'Task',
    ]);
    expect(plan.notAllowed).toEqual([]);
  });

  it('not the care team’s tasks in a patient’s own view, and without saying they are left out', () => {
    const plan = timelinePlan({ patientView: true }, chartAccessOf({ policy: patientPortalPolicy, superAdmin: false }));
    expect(typesOf(plan.asked)).not.toContain('Task');
    expect(plan.notAllowed).toEqual([]);
  });

  it('nothing the policy would refuse, named as a reader calls it', () => {
    const plan = timelinePlan({ patientView: false }, chartAccessOf({ policy: frontDeskPolicy, superAdmin: false }));
    expect(typesOf(plan.asked)).toEqual(['Communication', 'Task']);
    expect(plan.notAllowed.map((search) => search.label)).toEqual([
      'devices',
      'device requests',
      'reports',
      'media',
      'orders',
    ]);
  });
});
