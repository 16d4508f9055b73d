import { EventEmitter } from 'node:events';
import type { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import type { AccessGuard } from '../auth/accessGuard';
import type { Repository } from '../fhir/repository';
import type { Subscriber, SubscriberDirectory } from '../realtime';
import { FhircastSockets, leaseEndedCode, signInEndedCode } from './fhircastSockets';
import type { FhircastSubscription } from './fhircastStore';

/** A socket that records what it is sent and how it is closed. */
class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  readonly sent: string[] = [];
  closedWith?: number;
  send(data: string): void {
    this.sent.push(data);
  }
  close(code: number): void {
    this.closedWith = code;
    this.readyState = 3;
    this.emit('close', code);
  }
}

// An access guard that reads every row whole: the context needs no lookup.
const access = { seesWhole: () => true, redact: <T>(resource: T) => resource } as unknown as AccessGuard;

function sockets(now: () => number, signedIn: () => boolean) {
  const directory = {
    get: async (loginId: string): Promise<Subscriber | undefined> =>
      signedIn() ? { loginId, projectId: 'project-a', access, sessionEnds: Infinity } : undefined,
  } as unknown as SubscriberDirectory;
  return new FhircastSockets({} as Repository, directory, now);
}

const subscriber: Subscriber = { loginId: 'login-1', projectId: 'project-a', access, sessionEnds: Infinity };

const subscription = (expires: number): FhircastSubscription => ({
  id: `s-${expires}`,
  projectId: 'project-a',
  topic: 'Practitioner/p1\ntopic',
  events: ['Patient-open'],
  loginId: 'login-1',
  expires,
});

const envelope = {
  timestamp: new Date().toISOString(),
  id: 'e1',
  event: {
    'hub.topic': 'topic',
    'hub.event': 'Patient-open' as const,
    context: [{ key: 'patient', resource: { resourceType: 'Patient' as const, id: 'p1' } }],
  },
};

describe('FhircastSockets', () => {
  it('closes a socket whose lease ran out (4410), on the periodic check as on an event', async () => {
    let now = 1_000;
    const hub = sockets(
      () => now,
      () => true,
    );
    const swept = new FakeSocket();
    const delivered = new FakeSocket();
    hub.add(subscription(2_000), swept as unknown as WebSocket, subscriber);
    hub.add(subscription(3_000), delivered as unknown as WebSocket, subscriber);

    await hub.recheck();
    await hub.deliver('project-a', 'Practitioner/p1\ntopic', envelope);
    expect(swept.closedWith).toBeUndefined();
    expect(delivered.sent).toHaveLength(1);

    now = 2_000;
    await hub.recheck();
    expect(swept.closedWith).toBe(leaseEndedCode);
    now = 3_000;
    await hub.deliver('project-a', 'Practitioner/p1\ntopic', envelope);
    expect(delivered.closedWith).toBe(leaseEndedCode);
    expect(delivered.sent).toHaveLength(1);
    expect(hub.count()).toBe(0);
  });

  it('closes a socket whose sign-in ended (4401) instead of delivering to it', async () => {
    let signedIn = true;
    const hub = sockets(
      () => 0,
      () => signedIn,
    );
    const socket = new FakeSocket();
    hub.add(subscription(10_000), socket as unknown as WebSocket, subscriber);
    signedIn = false;
    await hub.deliver('project-a', 'Practitioner/p1\ntopic', envelope);
    expect(socket.sent).toEqual([]);
    expect(socket.closedWith).toBe(signInEndedCode);
  });

  it('delivers nothing past the sign-in session end even when its timer is late, and closes the socket (4401)', async () => {
    let now = 0;
    // The directory's cached subscriber still answers (its own clock says nothing yet).
    const directory = {
      get: async (loginId: string): Promise<Subscriber> => ({
        loginId,
        projectId: 'project-a',
        access,
        sessionEnds: 5_000,
      }),
    } as unknown as SubscriberDirectory;
    const hub = new FhircastSockets({} as Repository, directory, () => now);
    const socket = new FakeSocket();
    // The timer is set from this clock: 5 s of real time, not run before the end of the test.
    hub.add(subscription(60_000), socket as unknown as WebSocket, { ...subscriber, sessionEnds: 5_000 });
    await hub.deliver('project-a', 'Practitioner/p1\ntopic', envelope);
    expect(socket.sent).toHaveLength(1);

    now = 5_000;
    await hub.deliver('project-a', 'Practitioner/p1\ntopic', envelope);
    expect(socket.sent).toHaveLength(1);
    expect(socket.closedWith).toBe(signInEndedCode);
    expect(hub.count()).toBe(0);
  });
});
