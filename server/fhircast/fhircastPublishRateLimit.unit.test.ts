import type { Patient } from '@medplum/fhirtypes';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  anotherSignIn,
  embeddedRealtimeServer,
  signedInMember,
  type SignedInMember,
} from '../realtime/embeddedRealtimeServer.test-support';
import { defaultFhircastLimits } from './fhircastLimits';
import { fhircastRoutes } from './fhircastRoutes';

/* eslint-disable @typescript-eslint/no-explicit-any -- hub answers of many shapes */

const { eventsPerSecondPerPerson: perSecond, eventBurstPerPerson: burst } = defaultFhircastLimits;

/**
 * Publishing as fast as a client can (security review of 2026-11-28, follow-up): each event is
 * stored and sent to every socket of its topic on every process. Replayed over HTTP against the hub
 * with its default limits, on a server whose rate clock the test moves (it stands still meanwhile).
 */
describe('FHIRcast hub: publishing rate', { timeout: 60_000 }, () => {
  let now = Date.parse('2026-12-01T08:00:00Z');
  const server = embeddedRealtimeServer('fhircast-publish-rate', async (app, auth, db) => {
    await app.register(fhircastRoutes, { auth, db, now: () => now });
  });

  async function person(name: string): Promise<SignedInMember & { patientId: string }> {
    const member = await signedInMember(server().auth, name);
    const patient = await server().auth.repository.create(
      { projectId: member.projectId, author: { reference: member.profile } },
      { resourceType: 'Patient', name: [{ family: name }] } as Patient,
    );
    return { ...member, patientId: patient.id as string };
  }

  /** Publishes Patient-open of the person's patient, to the topic's URL or (`atBase`) to the hub's base. */
  async function publish(who: { patientId: string }, bearer: string, topic: string, atBase = false) {
    const event = {
      'hub.topic': topic,
      'hub.event': 'Patient-open',
      context: [{ key: 'patient', resource: { resourceType: 'Patient', id: who.patientId } }],
    };
    const path = atBase ? 'fhircast/STU3' : `fhircast/STU3/${encodeURIComponent(topic)}`;
    const response = await fetch(new URL(path, server().baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
      body: JSON.stringify({ timestamp: new Date(now).toISOString(), id: crypto.randomUUID(), event }),
    });
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: (await response.json()) as any,
    };
  }

  async function context(bearer: string, topic: string): Promise<any> {
    const response = await fetch(new URL(`fhircast/STU3/${encodeURIComponent(topic)}`, server().baseUrl), {
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect(response.status).toBe(200);
    return response.json();
  }

  let flooder: Awaited<ReturnType<typeof person>>;
  let bystander: Awaited<ReturnType<typeof person>>;

  beforeAll(async () => {
    flooder = await person('Flooder');
    bystander = await person('Bystander');
  });

  it('answers 429 with Retry-After past the burst, to every sign-in of the person, while others publish', async () => {
    for (let i = 0; i < burst; i++) {
      // Spread over topics and both paths: the bucket is the person's, not a topic's.
      expect((await publish(flooder, flooder.accessToken, `flood-${i % 5}`, i % 2 === 0)).status).toBe(202);
    }
    const before = await context(flooder.accessToken, 'flood-0');
    expect(before.context).toHaveLength(1);
    const refused = await publish(flooder, flooder.accessToken, 'flood-0');
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe('1');
    expect(refused.body).toEqual({
      resourceType: 'OperationOutcome',
      issue: [
        {
          severity: 'error',
          code: 'throttled',
          details: {
            text: `You are publishing FHIRcast events faster than ${perSecond} a second (${burst} at once), the most one person may: try again in 1 second`,
          },
        },
      ],
    });
    expect((await publish(flooder, flooder.accessToken, 'a-new-topic', true)).status).toBe(429);
    // Signing in again gives no new bucket.
    const second = await anotherSignIn(server().auth, flooder);
    expect((await publish(flooder, second.accessToken, 'flood-1')).status).toBe(429);
    // The refused events changed nothing: the topic's context is the last accepted event's.
    expect(await context(flooder.accessToken, 'flood-0')).toEqual(before);
    // Someone else publishes as usual.
    expect((await publish(bystander, bystander.accessToken, 'flood-0')).status).toBe(202);

    // The sustained rate: one more event every 1/20 s.
    now += 1000 / perSecond;
    expect((await publish(flooder, flooder.accessToken, 'flood-2')).status).toBe(202);
    expect((await publish(flooder, flooder.accessToken, 'flood-2')).status).toBe(429);
    now += 60_000;
    expect((await publish(flooder, second.accessToken, 'flood-3')).status).toBe(202);
  });
});
