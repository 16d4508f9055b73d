import type { ProjectMembership } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { FhirError } from '../fhir/fhirError';
import { externalEmailProblem } from './externalAuthRoutes';
import {
  awaitingOwnerExtension,
  awaitsAddressOwner,
  checkAwaitingOwnerKept,
  membershipUsable,
  ownerConfirmed,
} from './membershipState';

const base: ProjectMembership = {
  resourceType: 'ProjectMembership',
  id: 'm1',
  project: { reference: 'Project/p1' },
  user: { reference: 'User/u1' },
  profile: { reference: 'Practitioner/x' },
};
const other = { url: 'https://example.org/other', valueString: 'kept' };
const waiting: ProjectMembership = {
  ...base,
  active: false,
  extension: [other, awaitingOwnerExtension({ reference: 'UserSecurityRequest/r1' }, true)],
};

function refusal(work: () => void): string[] {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(FhirError);
    expect((error as FhirError).status).toBe(403);
    return (error as FhirError).outcome.issue.flatMap((issue) => issue.expression ?? []);
  }
  return [];
}

describe('a membership waiting for the owner of its address', () => {
  it('is never usable, whatever `active` says', () => {
    expect(membershipUsable(base)).toBe(true);
    expect(membershipUsable({ ...base, active: false })).toBe(false);
    expect(membershipUsable(undefined)).toBe(false);
    expect(awaitsAddressOwner(waiting)).toBe(true);
    expect(membershipUsable(waiting)).toBe(false);
    expect(membershipUsable({ ...waiting, active: true })).toBe(false);
  });

  it('becomes active once the owner is known, keeping other extensions, unless the inviter made it inactive', () => {
    const confirmed = ownerConfirmed(waiting);
    expect(confirmed.active).toBe(true);
    expect(confirmed.extension).toEqual([other]);
    expect(membershipUsable(confirmed)).toBe(true);
    const alone = ownerConfirmed({ ...base, active: false, extension: [awaitingOwnerExtension(undefined, false)] });
    expect(alone.active).toBe(false);
    expect(alone.extension).toBeUndefined();
  });

  it('keeps its state against writes: no activation, no removal, no new mark', () => {
    expect(refusal(() => checkAwaitingOwnerKept({ ...waiting, active: true }, waiting))).toEqual([
      'ProjectMembership.active',
    ]);
    expect(refusal(() => checkAwaitingOwnerKept({ ...waiting, active: undefined }, waiting))).toEqual([
      'ProjectMembership.active',
    ]);
    expect(refusal(() => checkAwaitingOwnerKept({ ...waiting, extension: [other] }, waiting))).toEqual([
      'ProjectMembership.extension',
    ]);
    expect(refusal(() => checkAwaitingOwnerKept(waiting, undefined))).toEqual(['ProjectMembership.extension']);
    expect(refusal(() => checkAwaitingOwnerKept(waiting, base))).toEqual(['ProjectMembership.extension']);
    // Other edits of a waiting membership, and any edit of an ordinary one, pass.
    expect(refusal(() => checkAwaitingOwnerKept({ ...waiting, admin: true }, waiting))).toEqual([]);
    expect(refusal(() => checkAwaitingOwnerKept({ ...base, active: false }, base))).toEqual([]);
  });
});

describe('externalEmailProblem', () => {
  it('trusts a domain provider for its own domain only, and never against email_verified: false', () => {
    expect(externalEmailProblem('a@corp.example', undefined, 'corp.example')).toBeUndefined();
    expect(externalEmailProblem('a@CORP.example', true, 'corp.example')).toBeUndefined();
    expect(externalEmailProblem('a@corp.example', false, 'corp.example')).toBe(
      'The identity provider has not verified this e-mail address',
    );
    expect(externalEmailProblem('victim@elsewhere.example', true, 'corp.example')).toBe(
      'The identity provider answered for an address outside corp.example',
    );
    expect(externalEmailProblem('a@sub.corp.example', true, 'corp.example')).toBeDefined();
  });
});
