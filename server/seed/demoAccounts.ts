import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AccessPolicy, Patient, Practitioner, ProjectMembership, Reference, User } from '@medplum/fhirtypes';
import type { RepositorySession } from '../fhir/repository';
import { parseSearchRequest } from '../search/searchRequest';
import { generatePassword, hashPassword } from '../auth/passwordHash';
import { accountsProjectId } from '../auth/authEnvironment';
import type { AdminState } from './adminBootstrap';
import { frontDeskPolicy } from './frontDeskPolicy';
import { patientPortalPolicy } from './patientPortalPolicy';
import { systemAuthor } from '../definitions/loadDefinitions';

export interface DemoAccount {
  email: string;
  role: string;
}

export interface DemoAccountsResult {
  accounts: DemoAccount[];
  generatedPassword?: string;
  passwordFile?: string;
}

export const demoDomain = 'demo.hearth.example';

/**
 * The demo clinic's people: a clinician admin (with a DoseSpot clinician id, so the e-prescribing
 * screens can be tried), a front-desk user under a restrictive policy, a patient of the Synthea
 * fixtures signed in to their own records, and the super admin as a second membership.
 */
export async function seedDemoAccounts(
  session: RepositorySession,
  options: { projectId: string; admin: AdminState; password?: string; dataDir: string },
): Promise<DemoAccountsResult> {
  const password = options.password ?? generatePassword();
  const passwordHash = await hashPassword(password);
  const ctx = { projectId: options.projectId, author: systemAuthor };
  const project: Reference = { reference: `Project/${options.projectId}`, display: 'Demo Clinic' };

  const frontDesk = (await session.create(ctx, frontDeskPolicy)) as AccessPolicy;
  const patientPortal = (await session.create(ctx, patientPortalPolicy)) as AccessPolicy;
  await session.flush();
  const projectResource = await session.read('Project', options.projectId);
  await session.update(ctx, {
    ...projectResource,
    defaultPatientAccessPolicy: { reference: `AccessPolicy/${patientPortal.id}`, display: 'Patient portal' },
  } as typeof projectResource);

  const person = async (first: string, last: string, email: string) => {
    const user = (await session.create({ projectId: accountsProjectId, author: systemAuthor }, {
      resourceType: 'User',
      firstName: first,
      lastName: last,
      email,
      emailVerified: true,
      passwordHash,
    } as User)) as User;
    return user;
  };
  const practitioner = async (first: string, last: string, prefix: string, email: string) =>
    (await session.create(ctx, {
      resourceType: 'Practitioner',
      name: [{ prefix: [prefix], given: [first], family: last }],
      telecom: [{ system: 'email', use: 'work', value: email }],
    } as Practitioner)) as Practitioner;
  const membership = (user: User | { id: string }, profile: Reference, extra: Partial<ProjectMembership> = {}) =>
    session.create(ctx, {
      resourceType: 'ProjectMembership',
      project,
      user: { reference: `User/${user.id}`, display: (user as User).email },
      profile,
      ...extra,
    } as ProjectMembership);

  const accounts: DemoAccount[] = [];

  const aliceEmail = `alice@${demoDomain}`;
  const alice = await person('Alice', 'Carter', aliceEmail);
  const alicePractitioner = await practitioner('Alice', 'Carter', 'Dr.', aliceEmail);
  await membership(
    alice,
    { reference: `Practitioner/${alicePractitioner.id}`, display: 'Dr. Alice Carter' },
    {
      admin: true,
      identifier: [{ system: 'https://dosespot.com/clinician-id', value: '304015' }],
    },
  );
  accounts.push({ email: aliceEmail, role: 'clinician, project admin, e-prescriber' });

  const benEmail = `ben@${demoDomain}`;
  const ben = await person('Ben', 'Okafor', benEmail);
  const benPractitioner = await practitioner('Ben', 'Okafor', 'Mr.', benEmail);
  await membership(
    ben,
    { reference: `Practitioner/${benPractitioner.id}`, display: 'Ben Okafor' },
    {
      accessPolicy: { reference: `AccessPolicy/${frontDesk.id}`, display: 'Front desk' },
    },
  );
  accounts.push({ email: benEmail, role: 'front desk, access policy "Front desk"' });

  const patients = await session.search(parseSearchRequest('Patient', { _count: '50' }, session.registry));
  const patient = patients.resources.find((resource) => resource.meta?.project === options.projectId) as
    Patient | undefined;
  if (patient) {
    const patientEmail = `patient@${demoDomain}`;
    const name = patient.name?.[0];
    const portalUser = await person(name?.given?.[0] ?? 'Demo', name?.family ?? 'Patient', patientEmail);
    await membership(
      portalUser,
      { reference: `Patient/${patient.id}`, display: `${name?.given?.[0] ?? ''} ${name?.family ?? ''}`.trim() },
      {
        accessPolicy: { reference: `AccessPolicy/${patientPortal.id}`, display: 'Patient portal' },
      },
    );
    accounts.push({ email: patientEmail, role: 'patient (own records only)' });
  }

  // The super admin works in the clinic too: two memberships, so sign-in asks which profile to use.
  const adminPractitioner = await practitioner('Super', 'Admin', 'Dr.', options.admin.email);
  await membership(
    { id: options.admin.userId },
    { reference: `Practitioner/${adminPractitioner.id}`, display: 'Super Admin (Demo Clinic)' },
    {
      admin: true,
    },
  );

  if (options.password) return { accounts };
  mkdirSync(options.dataDir, { recursive: true });
  const passwordFile = join(options.dataDir, 'demo-accounts.txt');
  writeFileSync(
    passwordFile,
    `Demo Clinic accounts, one password for all of them:\n${password}\n\n${accounts.map((a) => `${a.email}  ${a.role}`).join('\n')}\n`,
    { mode: 0o600 },
  );
  return { accounts, generatedPassword: password, passwordFile };
}
