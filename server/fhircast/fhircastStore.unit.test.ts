import { describe, expect, it } from 'vitest';
import { embeddedTestDatabase } from '../../tests/setup/embeddedTestDatabase';
import { fhircastStore, leaseSeconds } from './fhircastStore';

const database = embeddedTestDatabase('fhircast-store');

describe('fhircastStore subscriptions', { timeout: 30_000 }, () => {
  it('opens a subscription within the lease the confirmation announces, and not after it', async () => {
    const subscription = {
      projectId: 'project-a',
      topic: 'Practitioner/p1\ntopic',
      events: ['Patient-open'],
      loginId: 'login-1',
    };
    const limits = { perLogin: 100, perTopic: 100 };
    await fhircastStore.addSubscription(database(), { ...subscription, id: 'fresh' }, limits);
    await fhircastStore.addSubscription(database(), { ...subscription, id: 'stale' }, limits);
    // An endpoint handed out a lease and a minute ago: its URL is no longer a key to the topic.
    await database().query(
      `UPDATE fhircast_subscriptions SET created = now() - make_interval(secs => $1::float8) WHERE id = 'stale'`,
      [leaseSeconds + 60],
    );

    const fresh = await fhircastStore.subscription(database(), 'fresh');
    expect(fresh).toMatchObject({ ...subscription, id: 'fresh' });
    const expires = fresh?.expires ?? 0;
    expect(Math.abs(expires - (Date.now() + leaseSeconds * 1000))).toBeLessThan(60_000);
    expect(await fhircastStore.subscription(database(), 'stale')).toBeUndefined();
  });

  it('caps open subscriptions per sign-in and per topic; ended and expired ones do not count', async () => {
    const limits = { perLogin: 2, perTopic: 3 };
    const add = (id: string, loginId: string, topic: string) =>
      fhircastStore.addSubscription(
        database(),
        { id, projectId: 'project-c', topic, events: ['Patient-open'], loginId },
        limits,
      );
    expect(await add('c1', 'login-c1', 'Practitioner/c\na')).toBeUndefined();
    expect(await add('c2', 'login-c1', 'Practitioner/c\nb')).toBeUndefined();
    expect(await add('c3', 'login-c1', 'Practitioner/c\nc')).toBe('login');
    expect(await add('c4', 'login-c2', 'Practitioner/c\na')).toBeUndefined();
    expect(await add('c5', 'login-c3', 'Practitioner/c\na')).toBeUndefined();
    expect(await add('c6', 'login-c4', 'Practitioner/c\na')).toBe('topic');
    expect(await fhircastStore.subscription(database(), 'c6')).toBeUndefined();
    // An unsubscribe frees its place.
    expect(await fhircastStore.endSubscription(database(), 'c1', 'project-c', 'Practitioner/c\na')).toBe(true);
    expect(await add('c7', 'login-c1', 'Practitioner/c\na')).toBeUndefined();
  });

  it('refuses a new topic past the topics of its owner; a topic that exists goes on', async () => {
    const owner = { prefix: 'Practitioner/t\n', maxTopics: 2 };
    const lock = (topic: string) =>
      database().transaction((tx) => fhircastStore.lockContext(tx, 'project-t', `Practitioner/t\n${topic}`, owner));
    expect(await lock('one')).toBeDefined();
    expect(await lock('two')).toBeDefined();
    expect(await lock('three')).toBeUndefined();
    expect(await lock('one')).toBeDefined();
    // Another person of the project has topics of their own.
    expect(
      await database().transaction((tx) =>
        fhircastStore.lockContext(tx, 'project-t', 'Practitioner/u\nthree', { ...owner, prefix: 'Practitioner/u\n' }),
      ),
    ).toBeDefined();
  });

  it('removes ended and expired subscriptions, and topics no one follows that did not change for a day', async () => {
    const db = database();
    const limits = { perLogin: 100, perTopic: 100 };
    const base = { projectId: 'project-s', events: ['Patient-open'], loginId: 'login-s' };
    for (const topic of ['idle', 'followed', 'recent']) {
      await db.transaction((tx) =>
        fhircastStore.lockContext(tx, 'project-s', `Practitioner/s\n${topic}`, {
          prefix: 'Practitioner/s\n',
          maxTopics: 10,
        }),
      );
    }
    await db.query(
      `UPDATE fhircast_topics SET updated = now() - interval '25 hours' WHERE project_id = 'project-s' AND topic <> $1`,
      ['Practitioner/s\nrecent'],
    );
    await fhircastStore.addSubscription(db, { ...base, id: 's-open', topic: 'Practitioner/s\nfollowed' }, limits);
    await fhircastStore.addSubscription(db, { ...base, id: 's-ended', topic: 'Practitioner/s\nidle' }, limits);
    await fhircastStore.endSubscription(db, 's-ended', 'project-s', 'Practitioner/s\nidle');
    await fhircastStore.addSubscription(db, { ...base, id: 's-expired', topic: 'Practitioner/s\nidle' }, limits);
    await db.query(
      `UPDATE fhircast_subscriptions SET created = now() - make_interval(secs => $1::float8) WHERE id = 's-expired'`,
      [leaseSeconds + 1],
    );

    await fhircastStore.sweep(db);
    const subscriptions = await db.query<{ id: string }>(
      `SELECT id FROM fhircast_subscriptions WHERE project_id = 'project-s' ORDER BY id`,
    );
    expect(subscriptions.map((row) => row.id)).toEqual(['s-open']);
    const topics = await db.query<{ topic: string }>(
      `SELECT topic FROM fhircast_topics WHERE project_id = 'project-s' ORDER BY topic`,
    );
    expect(topics.map((row) => row.topic)).toEqual(['Practitioner/s\nfollowed', 'Practitioner/s\nrecent']);
  });
});
