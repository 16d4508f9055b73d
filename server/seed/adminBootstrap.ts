import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Resource } from '@medplum/fhirtypes';
import type { Repository } from '../fhir/repository';
import { readState, writeState } from '../storage/serverState';
import { generatePassword, hashPassword } from '../auth/passwordHash';
import { systemAuthor } from '../definitions/loadDefinitions';

export interface AdminState {
  projectId: string;
  userId: string;
  practitionerId: string;
  membershipId: string;
  email: string;
}

export interface AdminBootstrapResult {
  state: AdminState;
  /** Set only on the run that created the admin with a generated password. */
  generatedPassword?: string;
  passwordFile?: string;
}

/**
 * On first start: a super-admin project, its Practitioner, the User and the membership. A generated
 * password is returned once and written (owner-only) to DATA_DIR; it is never logged elsewhere.
 */
export async function bootstrapAdmin(
  repository: Repository,
  options: { email: string; password?: string; dataDir: string },
): Promise<AdminBootstrapResult> {
  const existing = await readState<AdminState>(repository.db, 'admin');
  if (existing) return { state: existing };

  const password = options.password ?? generatePassword();
  const passwordHash = await hashPassword(password);
  const state = await repository.transaction(async (session) => {
    // The project belongs to itself, so its id is chosen before it is written.
    const ctx = { projectId: randomUUID(), author: systemAuthor };
    const project = await session.create(
      ctx,
      {
        resourceType: 'Project',
        name: 'Hearth EMR Admin',
        description: 'Super administrators of this Hearth EMR server',
        superAdmin: true,
      } as Resource,
      { id: ctx.projectId, fresh: true },
    );
    const practitioner = await session.create(ctx, {
      resourceType: 'Practitioner',
      name: [{ given: ['Super'], family: 'Admin' }],
      telecom: [{ system: 'email', use: 'work', value: options.email }],
    } as Resource);
    const user = await session.create(ctx, {
      resourceType: 'User',
      firstName: 'Super',
      lastName: 'Admin',
      email: options.email,
      emailVerified: true,
      passwordHash,
    } as Resource);
    const membership = await session.create(ctx, {
      resourceType: 'ProjectMembership',
      project: { reference: `Project/${project.id}`, display: 'Hearth EMR Admin' },
      user: { reference: `User/${user.id}`, display: options.email },
      profile: { reference: `Practitioner/${practitioner.id}`, display: 'Super Admin' },
      admin: true,
    } as Resource);
    await session.update(ctx, {
      ...project,
      owner: { reference: `User/${user.id}` },
      meta: undefined,
    } as Resource);
    const created: AdminState = {
      projectId: project.id as string,
      userId: user.id as string,
      practitionerId: practitioner.id as string,
      membershipId: membership.id as string,
      email: options.email,
    };
    await session.flush();
    await writeState(session.tx, 'admin', created);
    return created;
  });

  if (options.password) return { state };
  mkdirSync(options.dataDir, { recursive: true });
  const passwordFile = join(options.dataDir, 'admin-password.txt');
  writeFileSync(passwordFile, `${options.email}\n${password}\n`, { mode: 0o600 });
  return { state, generatedPassword: password, passwordFile };
}
