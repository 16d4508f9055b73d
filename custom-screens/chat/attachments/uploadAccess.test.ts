import type { AccessPolicy } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { frontDeskPolicy } from '../../../config/access/demoAccessPolicies';
import { mayUploadMedia } from './uploadAccess';

const policy = (resource: AccessPolicy['resource']): AccessPolicy => ({ resourceType: 'AccessPolicy', resource });

describe('mayUploadMedia: an upload is offered only when it can go through', () => {
  it('needs Media create and update and Binary create', () => {
    expect(mayUploadMedia(policy([{ resourceType: 'Media' }, { resourceType: 'Binary' }]), false)).toBe(true);
    expect(mayUploadMedia(policy([{ resourceType: 'Communication' }, { resourceType: 'Binary' }]), false)).toBe(false);
    expect(mayUploadMedia(policy([{ resourceType: 'Media' }]), false)).toBe(false);
    expect(
      mayUploadMedia(policy([{ resourceType: 'Media', interaction: ['create'] }, { resourceType: 'Binary' }]), false),
    ).toBe(false);
    expect(mayUploadMedia(policy([{ resourceType: 'Media', readonly: true }, { resourceType: 'Binary' }]), false)).toBe(
      false,
    );
  });
  it('lets a member without a policy and a super admin upload', () => {
    expect(mayUploadMedia(undefined, false)).toBe(true);
    expect(mayUploadMedia(policy([]), true)).toBe(true);
  });
  it("does not offer the demo's front desk an upload its policy refuses (no Media, no Binary)", () => {
    expect(mayUploadMedia(frontDeskPolicy, false)).toBe(false);
  });
});
