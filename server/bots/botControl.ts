import type { Bot } from '@medplum/fhirtypes';
import type { callerOf } from '../auth/authenticate';
import { errors } from '../fhir/fhirError';
import type { RepositorySession } from '../fhir/repository';
import { botPolicyEntries } from './botPermission';

type Caller = ReturnType<typeof callerOf>;

/**
 * The one rule for controlling a bot (running it, deploying its code): project admins, or members
 * whose access policy has a writable Bot entry that admits this bot. `verb` names the action in
 * the refusal ("execute", "deploy").
 */
export async function checkBotControl(
  caller: Caller,
  session: RepositorySession,
  bot: Bot,
  verb: 'execute' | 'deploy',
): Promise<void> {
  const rule = botPolicyEntries({
    superAdmin: caller.superAdmin,
    projectAdmin: caller.projectAdmin,
    policy: caller.accessPolicy,
  });
  if (rule === 'none') {
    throw errors.forbidden(
      `Forbidden: only project admins, and members whose access policy has a Bot entry, may ${verb} bots`,
    );
  }
  if (rule === 'policy' && !(await caller.ctx.access?.allows(session.tx, bot, 'update'))) {
    throw errors.forbidden(
      `Forbidden: your access policy does not allow ${verb === 'deploy' ? 'deploying' : 'executing'} this Bot`,
    );
  }
}
