import type { Bot, Resource, Subscription } from '@medplum/fhirtypes';
import type { CommittedWrite, Repository } from '../fhir/repository';
import { matchesCriteria } from '../realtime/criteriaMatcher';
import { botRunAuthor, type BotRunner } from './botRunner';

/** How long the list of bot Subscriptions is trusted before it is read again (other processes' changes). */
export const subscriptionRefreshMs = 10_000;

interface BotSubscription {
  subscription: Subscription;
  projectId: string;
  botId: string;
}

const botEndpoint = /^Bot\/([A-Za-z0-9\-.]{1,64})$/;

/** Is this Subscription one that runs a bot (`rest-hook` to `Bot/{id}`, active)? */
export function botIdOfSubscription(subscription: Subscription): string | undefined {
  if (subscription.status !== 'active' || subscription.channel?.type !== 'rest-hook') return undefined;
  return botEndpoint.exec(subscription.channel.endpoint ?? '')?.[1];
}

/** Should a committed write be offered to bot Subscriptions at all? */
export function triggersBots(write: CommittedWrite): boolean {
  if (write.operation === 'delete') return false;
  // Run records and the bot's own writes never trigger bots: either could loop forever.
  const author = write.resource.meta?.author?.reference;
  return author !== botRunAuthor.reference;
}

/**
 * Runs bots for Subscriptions with `channel.type` `rest-hook` and `channel.endpoint` `Bot/{id}`:
 * after each committed create or update, every active such Subscription of the resource's project
 * whose criteria match the new version runs its bot with the resource as input (one run at a time
 * per commit, after the commit, never inside the writer's request). Each run is recorded as an
 * AuditEvent by the runner, so failures are visible.
 */
export class BotSubscriptions {
  private cache: { loadedAt: number; subscriptions: BotSubscription[] } | undefined;
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly repository: Repository,
    private readonly runner: BotRunner,
    private readonly now: () => number = Date.now,
  ) {
    this.unsubscribe = repository.onCommitted((writes) => this.onCommitted(writes));
  }

  /** Resolves when every run started so far has finished (tests; shutdown). */
  idle(): Promise<void> {
    return this.queue;
  }

  stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe();
    return this.queue;
  }

  private onCommitted(writes: readonly CommittedWrite[]): void {
    if (writes.some((write) => write.resource.resourceType === 'Subscription')) this.cache = undefined;
    const candidates = writes.filter(triggersBots);
    if (candidates.length === 0) return;
    this.queue = this.queue
      .then(() => this.dispatch(candidates))
      .catch((error: unknown) => console.error('bot subscriptions failed', error));
  }

  private async subscriptions(): Promise<BotSubscription[]> {
    if (this.cache && this.now() - this.cache.loadedAt < subscriptionRefreshMs) return this.cache.subscriptions;
    const rows = await this.repository.db.query<{ content: Subscription; project_id: string | null }>(
      `SELECT content, project_id FROM resources
       WHERE resource_type = 'Subscription' AND NOT deleted
         AND content->>'status' = 'active' AND content->'channel'->>'type' = 'rest-hook'
         AND content->'channel'->>'endpoint' LIKE 'Bot/%'`,
    );
    const subscriptions: BotSubscription[] = [];
    for (const row of rows) {
      const botId = botIdOfSubscription(row.content);
      if (botId && row.project_id) subscriptions.push({ subscription: row.content, projectId: row.project_id, botId });
    }
    this.cache = { loadedAt: this.now(), subscriptions };
    return subscriptions;
  }

  private async dispatch(writes: readonly CommittedWrite[]): Promise<void> {
    if (this.stopped) return;
    const subscriptions = await this.subscriptions();
    if (subscriptions.length === 0) return;
    for (const write of writes) {
      const resource = write.resource;
      const projectId = resource.meta?.project;
      const author = resource.meta?.author?.reference;
      for (const entry of subscriptions) {
        // Only the Subscription's own project, and never a bot's reaction to its own writes.
        if (entry.projectId !== projectId || author === `Bot/${entry.botId}`) continue;
        if (!(await this.matches(entry.subscription, resource))) continue;
        await this.runBot(entry, resource);
      }
    }
  }

  private async matches(subscription: Subscription, resource: Resource): Promise<boolean> {
    const criteria = subscription.criteria ?? '';
    const type = criteria.split('?')[0];
    if (type !== resource.resourceType) return false;
    try {
      return await this.repository.transaction((session) => matchesCriteria(session, criteria, resource));
    } catch (error) {
      console.error(`Subscription/${subscription.id} has criteria that cannot be evaluated`, error);
      return false;
    }
  }

  private async runBot(entry: BotSubscription, resource: Resource): Promise<void> {
    let bot: Bot;
    try {
      bot = (await this.repository.transaction((session) => session.read('Bot', entry.botId))) as Bot;
    } catch {
      console.error(`Subscription/${entry.subscription.id} names Bot/${entry.botId}, which does not exist`);
      return;
    }
    if (bot.meta?.project !== entry.projectId) return;
    const invocation = {
      bot,
      input: resource,
      contentType: 'application/fhir+json',
      requester: { reference: `Subscription/${entry.subscription.id}` },
      about: [
        { reference: `Subscription/${entry.subscription.id}` },
        { reference: `${resource.resourceType}/${resource.id}` },
      ],
    };
    try {
      await this.runner.run(invocation);
    } catch (error) {
      // A bot that cannot even start (no code) is recorded like a failed run.
      await this.runner
        .recordStartFailure(invocation, error)
        .catch((failure: unknown) => console.error(`Bot/${bot.id} could not run nor be recorded`, failure));
    }
  }
}
