import type { AccessPolicy } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { resourceScopesOf } from '../../data-provider/access';
import { AccessGuard } from '../auth/accessGuard';
import { definitionSearchParameters } from '../serverRuntime';
import { patientPortalPolicy, frontDeskPolicy } from '../../config/access/demoAccessPolicies';
import { limitsWrittenRows } from './referenceAccess';

const registry = definitionSearchParameters();
const guard = (options: { policy?: AccessPolicy; superAdmin?: boolean; scope?: string }) =>
  new AccessGuard(
    {
      projectId: 'A',
      sharedProjectId: 'S',
      superAdmin: options.superAdmin ?? false,
      policy: options.policy,
      ...(options.scope ? { scopes: resourceScopesOf(options.scope), launchPatient: 'Patient/p1' } : {}),
    },
    registry,
  );

describe('limitsWrittenRows: whose references are held to what they may read', () => {
  it('the demo patient, for every type she writes; the front desk for Tasks (criteria) only', () => {
    const patient = guard({ policy: { ...patientPortalPolicy, resource: resolve(patientPortalPolicy) } });
    expect(limitsWrittenRows(patient, 'Communication', 'create')).toBe(true);
    expect(limitsWrittenRows(patient, 'Communication', 'update')).toBe(true);
    expect(limitsWrittenRows(patient, 'Subscription', 'create')).toBe(true);
    const frontDesk = guard({ policy: frontDeskPolicy });
    expect(limitsWrittenRows(frontDesk, 'Task', 'update')).toBe(true);
    expect(limitsWrittenRows(frontDesk, 'Communication', 'create')).toBe(false);
    expect(limitsWrittenRows(frontDesk, 'Appointment', 'create')).toBe(false);
  });

  it('not a clinician without a policy, nor a super admin, nor an entry without compartment or criteria next to one with', () => {
    expect(limitsWrittenRows(guard({}), 'Observation', 'create')).toBe(false);
    expect(limitsWrittenRows(guard({ superAdmin: true }), 'Observation', 'create')).toBe(false);
    const mixed = guard({
      policy: {
        resourceType: 'AccessPolicy',
        resource: [
          { resourceType: 'Observation', criteria: 'Observation?status=final' },
          { resourceType: 'Observation' },
        ],
      },
    });
    expect(limitsWrittenRows(mixed, 'Observation', 'create')).toBe(false);
  });

  it('a token whose granting scopes are all patient/ ones or queries, super admins included', () => {
    expect(limitsWrittenRows(guard({ scope: 'patient/Observation.cu' }), 'Observation', 'create')).toBe(true);
    expect(limitsWrittenRows(guard({ superAdmin: true, scope: 'patient/*.cruds' }), 'Observation', 'create')).toBe(
      true,
    );
    expect(
      limitsWrittenRows(guard({ scope: 'user/Observation.c?category=vital-signs' }), 'Observation', 'create'),
    ).toBe(true);
    expect(limitsWrittenRows(guard({ scope: 'user/Observation.cu' }), 'Observation', 'create')).toBe(false);
    expect(
      limitsWrittenRows(guard({ scope: 'user/Observation.cu patient/Observation.cu' }), 'Observation', 'create'),
    ).toBe(false);
  });
});

/** The portal policy as a signed-in patient's guard holds it: `%profile` resolved. */
function resolve(policy: AccessPolicy): AccessPolicy['resource'] {
  return JSON.parse(JSON.stringify(policy.resource).replaceAll('%profile', 'Patient/p1')) as AccessPolicy['resource'];
}
