import { describe, expect, it } from 'vitest';
import type { ProjectMembership } from '@medplum/fhirtypes';
import { botRunInput, botRunResultText } from './botRunInput';
import {
  chartDetails,
  emptyInvite,
  inviteOutcome,
  inviteProblems,
  inviteRequestOf,
  withChartDetails,
} from './inviteForm';
import { memberField, memberFormOf, memberFormProblems, membershipOf } from './memberForm';
import { memberRows } from './memberRows';
import { newSiteForm, siteFormProblems, siteFormsOf, sitesOf } from './siteForms';

describe('site forms', () => {
  it('turns domains typed one per line or with commas into the list the server stores', () => {
    const [form] = siteFormsOf([{ name: 'Portal', domain: ['a.example'] }]);
    const edited = { ...form, domains: 'a.example,\n b.example ', recaptchaSiteKey: ' key ' };
    expect(sitesOf([edited])).toEqual([
      { name: 'Portal', domain: ['a.example', 'b.example'], recaptchaSiteKey: 'key' },
    ]);
  });

  it('shows each problem under its form and field, from the rule or from the server', () => {
    const blank = newSiteForm();
    const bad = { ...newSiteForm(), name: 'B', domains: 'https://b.example' };
    expect(siteFormProblems([blank, bad])).toEqual({
      [blank.key]: { name: 'Name is required (up to 200 characters)', domains: 'At least one domain is required' },
      [bad.key]: { domains: 'A domain is a host name such as app.example.org (no https:// or path)' },
    });
    expect(siteFormProblems([bad], [{ path: 'site[0].googleClientId', message: 'too long' }])).toEqual({
      [bad.key]: { googleClientId: 'too long' },
    });
  });
});

describe('invite form', () => {
  it('asks for names and an e-mail address', () => {
    expect(inviteProblems(emptyInvite)).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'Email is required',
    });
    expect(inviteProblems({ ...emptyInvite, firstName: 'A', lastName: 'B', email: 'not-mail' })).toEqual({
      email: 'Enter an e-mail address',
    });
  });

  it('sends the chosen policy and says honestly where the e-mail went', () => {
    const form = {
      ...emptyInvite,
      firstName: ' Dana ',
      lastName: 'Lee',
      email: 'dana@x.example',
      accessPolicy: 'AccessPolicy/p',
    };
    expect(inviteRequestOf(form)).toEqual({
      resourceType: 'Practitioner',
      firstName: 'Dana',
      lastName: 'Lee',
      email: 'dana@x.example',
      admin: false,
      sendEmail: true,
      accessPolicy: { reference: 'AccessPolicy/p' },
    });
    expect(inviteOutcome(form, 'smtp')).toBe('Dana Lee was added and an invitation e-mail was sent to dana@x.example.');
    expect(inviteOutcome(form, 'outbox')).toMatch(/nobody received it/);
    expect(inviteOutcome({ ...form, sendEmail: false }, 'smtp')).toMatch(/No e-mail was sent/);
    // An existing account whose address nobody has proved: the member waits for the address owner.
    const waiting = {
      extension: [{ url: 'https://hearth-emr.org/fhir/StructureDefinition/membership-awaiting-address-owner' }],
    };
    expect(inviteOutcome(form, 'smtp', waiting)).toBe(
      'Dana Lee was added, but dana@x.example already has an account whose address was never confirmed: they can sign in to this project once the owner of the address chooses a password from the e-mail sent to dana@x.example.',
    );
    expect(inviteOutcome({ ...form, sendEmail: false }, 'smtp', waiting)).toMatch(/with "Forgot password"/);
    expect(inviteOutcome(form, 'smtp', { extension: [{ url: 'urn:other' }] })).toMatch(/invitation e-mail was sent/);
  });
});

describe('invite form: an existing chart', () => {
  const patient = {
    ...emptyInvite,
    resourceType: 'Patient' as const,
    firstName: 'Maria',
    lastName: 'Registered',
    email: 'maria@x.example',
  };

  it("sends the chosen chart as Medplum's membership.profile, only for a patient invited onto it", () => {
    const chosen = { ...patient, chart: 'existing' as const, profile: { reference: 'Patient/p1', display: 'M R' } };
    expect(inviteRequestOf(chosen)).toEqual({
      resourceType: 'Patient',
      firstName: 'Maria',
      lastName: 'Registered',
      email: 'maria@x.example',
      admin: false,
      sendEmail: true,
      membership: { profile: { reference: 'Patient/p1' } },
    });
    // A new chart, or another role chosen afterwards: nothing is linked.
    expect(inviteRequestOf({ ...chosen, chart: 'new' })).not.toHaveProperty('membership');
    expect(inviteRequestOf({ ...chosen, resourceType: 'Practitioner' })).not.toHaveProperty('membership');
    expect(inviteProblems({ ...chosen, profile: undefined })).toEqual({ profile: "Choose the patient's chart" });
    expect(inviteProblems({ ...chosen, profile: undefined, resourceType: 'Practitioner' })).toEqual({});
  });

  it("fills the fields left empty from the chart, and names the chart's name once added", () => {
    const details = chartDetails({
      resourceType: 'Patient',
      name: [
        { use: 'nickname', given: ['Mia'] },
        { use: 'official', given: ['Maria', 'Luisa'], family: 'Registered' },
      ],
      telecom: [
        { system: 'phone', value: '555' },
        { system: 'email', value: 'chart@x.example' },
      ],
    });
    expect(details).toEqual({ firstName: 'Maria Luisa', lastName: 'Registered', email: 'chart@x.example' });
    const typed = { ...emptyInvite, resourceType: 'Patient' as const, email: 'portal@x.example' };
    const filled = withChartDetails(typed, details);
    expect([filled.firstName, filled.lastName, filled.email]).toEqual([
      'Maria Luisa',
      'Registered',
      'portal@x.example',
    ]);
    // Another chart chosen: what the first one filled follows, what was typed stays.
    const other = { firstName: 'Rosa', lastName: 'Other', email: '' };
    const refilled = withChartDetails({ ...filled, lastName: 'Edited' }, other, details);
    expect([refilled.firstName, refilled.lastName, refilled.email]).toEqual(['Rosa', 'Edited', 'portal@x.example']);
    expect(inviteOutcome(typed, 'smtp', { profile: { display: 'Maria Registered' } })).toBe(
      'Maria Registered was added and an invitation e-mail was sent to portal@x.example.',
    );
  });
});

describe('member form', () => {
  const stored: ProjectMembership = {
    resourceType: 'ProjectMembership',
    id: 'm',
    project: { reference: 'Project/p' },
    user: { reference: 'User/u' },
    profile: { reference: 'Practitioner/a', display: 'Alice' },
    accessPolicy: { reference: 'AccessPolicy/x', display: 'X' },
    admin: true,
  };

  it('changes only what the dialog edits and keeps displays of unchanged references', () => {
    const form = { ...memberFormOf(stored), admin: false, accessPolicy: '' };
    const next = membershipOf(stored, form);
    expect(next).toEqual({
      resourceType: 'ProjectMembership',
      id: 'm',
      project: { reference: 'Project/p' },
      user: { reference: 'User/u' },
      profile: { reference: 'Practitioner/a', display: 'Alice' },
      admin: false,
      active: true,
    });
  });

  it('wants a person as profile, and maps server paths to fields', () => {
    expect(
      membershipOf(stored, { ...memberFormOf(stored), accessPolicy: 'AccessPolicy/y' }, 'Front desk').accessPolicy,
    ).toEqual({
      reference: 'AccessPolicy/y',
      display: 'Front desk',
    });
    expect(memberFormProblems({ ...memberFormOf(stored), profile: 'Device/1' }, stored)).toEqual({
      profile: 'The profile is a Practitioner, Patient or RelatedPerson, e.g. Practitioner/123',
    });
    expect(memberFormProblems(memberFormOf(stored), stored)).toEqual({});
    expect(memberField('ProjectMembership.accessPolicy')).toBe('accessPolicy');
    expect(memberField('ProjectMembership.access[0].policy')).toBeUndefined();
  });
});

describe('bot run input', () => {
  it('parses JSON, passes text through, and says what is wrong', () => {
    expect(botRunInput('{"n": 1}', 'application/json')).toEqual({
      ok: true,
      body: { n: 1 },
      contentType: 'application/json',
    });
    expect(botRunInput('', 'application/json')).toEqual({ ok: true, body: {}, contentType: 'application/json' });
    expect(botRunInput('MSH|^~', 'text/plain')).toEqual({ ok: true, body: 'MSH|^~', contentType: 'text/plain' });
    const bad = botRunInput('{n: 1', 'application/json');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.problem).toMatch(/^The input is not JSON/);
  });

  it('shows results as people read them', () => {
    expect(botRunResultText({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(botRunResultText('done')).toBe('done');
    expect(botRunResultText(undefined)).toBe('(the bot returned nothing)');
  });
});

describe('member rows', () => {
  it('tell a member waiting for the owner of the address from one an admin switched off', () => {
    const membership = (id: string, extra: Partial<ProjectMembership>): ProjectMembership => ({
      resourceType: 'ProjectMembership',
      id,
      project: { reference: 'Project/p' },
      user: { reference: `User/${id}` },
      profile: { reference: `Practitioner/${id}`, display: id },
      ...extra,
    });
    const rows = memberRows({
      resourceType: 'Bundle',
      type: 'searchset',
      entry: [
        {
          resource: membership('waiting', {
            active: false,
            extension: [{ url: 'https://hearth-emr.org/fhir/StructureDefinition/membership-awaiting-address-owner' }],
          }),
        },
        { resource: membership('off', { active: false }) },
        { resource: membership('on', {}) },
      ],
    });
    expect(rows.map(({ id, active, awaitingOwner }) => ({ id, active, awaitingOwner }))).toEqual([
      { id: 'off', active: false, awaitingOwner: false },
      { id: 'on', active: true, awaitingOwner: false },
      { id: 'waiting', active: false, awaitingOwner: true },
    ]);
  });
});
