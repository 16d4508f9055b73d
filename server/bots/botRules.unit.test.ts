import type { Bot, Project, ProjectMembership, Subscription } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import type { CommittedWrite } from '../fhir/repository';
import { asCommonJs } from './botCode';
import { botPolicyEntries } from './botPermission';
import { botRunAuthor, botSecrets, botTimeoutMs } from './botRunner';
import { botIdOfSubscription, triggersBots } from './botSubscriptions';

describe('who may execute a bot', () => {
  it('admins always; members only with a writable Bot entry', () => {
    expect(botPolicyEntries({ superAdmin: true, projectAdmin: false })).toBe('any');
    expect(botPolicyEntries({ superAdmin: false, projectAdmin: true })).toBe('any');
    expect(botPolicyEntries({ superAdmin: false, projectAdmin: false })).toBe('none');
    const policy = (resource: { resourceType: string; readonly?: boolean }[]) => ({
      superAdmin: false,
      projectAdmin: false,
      policy: { resourceType: 'AccessPolicy' as const, resource },
    });
    expect(botPolicyEntries(policy([{ resourceType: '*' }]))).toBe('none');
    expect(botPolicyEntries(policy([{ resourceType: 'Bot', readonly: true }]))).toBe('none');
    expect(botPolicyEntries(policy([{ resourceType: 'Patient' }, { resourceType: 'Bot' }]))).toBe('policy');
  });
});

describe('bot code and settings', () => {
  it('turns export statements into CommonJS and leaves CommonJS alone', () => {
    expect(asCommonJs('export async function handler(m, e) {}')).toBe(
      'exports.handler = async function handler(m, e) {}',
    );
    expect(asCommonJs('export function helper() {}')).toBe('exports.helper = function helper() {}');
    expect(asCommonJs('export const handler = async () => 1;')).toBe('exports.handler = async () => 1;');
    const common = 'exports.handler = async () => "export function x() {}";';
    expect(asCommonJs(common)).toBe(common);
  });

  it('lets a bot shorten, never lengthen, the server time limit', () => {
    const bot = (timeout?: number) => ({ resourceType: 'Bot', timeout }) as Bot;
    expect(botTimeoutMs(bot(), 10_000)).toBe(10_000);
    expect(botTimeoutMs(bot(2), 10_000)).toBe(2000);
    expect(botTimeoutMs(bot(60), 10_000)).toBe(10_000);
    expect(botTimeoutMs(bot(0), 10_000)).toBe(10_000);
  });

  it('gives the membership’s secrets precedence over the project’s', () => {
    const project = {
      resourceType: 'Project',
      secret: [
        { name: 'A', valueString: 'project' },
        { name: 'B', valueString: 'project' },
      ],
    } as Project;
    const membership = {
      resourceType: 'ProjectMembership',
      secret: [{ name: 'B', valueString: 'own' }],
    } as unknown as ProjectMembership;
    expect(botSecrets(project, membership)).toEqual({
      A: { name: 'A', valueString: 'project' },
      B: { name: 'B', valueString: 'own' },
    });
    expect(botSecrets(undefined, { resourceType: 'ProjectMembership' } as ProjectMembership)).toEqual({});
  });
});

describe('Subscription triggers', () => {
  const subscription = (fields: Partial<Subscription>) =>
    ({
      resourceType: 'Subscription',
      status: 'active',
      reason: 'r',
      criteria: 'Task',
      channel: { type: 'rest-hook', endpoint: 'Bot/b1' },
      ...fields,
    }) as Subscription;

  it('recognises active rest-hook Subscriptions to a Bot', () => {
    expect(botIdOfSubscription(subscription({}))).toBe('b1');
    expect(botIdOfSubscription(subscription({ status: 'off' }))).toBeUndefined();
    expect(botIdOfSubscription(subscription({ channel: { type: 'websocket' } }))).toBeUndefined();
    expect(
      botIdOfSubscription(subscription({ channel: { type: 'rest-hook', endpoint: 'https://x.example/hook' } })),
    ).toBeUndefined();
  });

  it('offers creates and updates, never deletes nor run records', () => {
    const write = (operation: CommittedWrite['operation'], author = 'Practitioner/p') =>
      ({
        operation,
        resource: { resourceType: 'Task', id: 't', meta: { author: { reference: author } } },
      }) as CommittedWrite;
    expect(triggersBots(write('create'))).toBe(true);
    expect(triggersBots(write('update'))).toBe(true);
    expect(triggersBots(write('delete'))).toBe(false);
    expect(triggersBots(write('create', botRunAuthor.reference))).toBe(false);
  });
});
