import { describe, expect, it } from 'vitest';
import type { Communication } from '@medplum/fhirtypes';
import {
  conversationCriteria,
  conversationQuery,
  groupByTimeHeader,
  isOwnMessage,
  mergeMessages,
  messageSide,
  messageText,
  newChatMessage,
  senderName,
  sendersToLookUp,
  markedRead,
  replyRecipient,
  unreadFor,
  UNKNOWN_SENDER,
} from './chatMessages';

function message(id: string, sent: string, extra: Partial<Communication> = {}): Communication {
  return { resourceType: 'Communication', status: 'in-progress', id, sent, ...extra };
}

describe('mergeMessages', () => {
  it('keeps one entry per id, oldest first, whatever order they arrive in', () => {
    const a = message('a', '2026-01-01T10:00:00Z');
    const b = message('b', '2026-01-01T10:01:00Z');
    const c = message('c', '2026-01-01T10:02:00Z');
    const merged = mergeMessages([c, a], [b, a, c]);
    expect(merged.map((m) => m.id)).toEqual(['a', 'b', 'c']);
  });

  it('takes the later version of a message that changed', () => {
    const old = message('a', '2026-01-01T10:00:00Z', { meta: { lastUpdated: '2026-01-01T10:00:00Z' } });
    const read = message('a', '2026-01-01T10:00:00Z', {
      status: 'completed',
      meta: { lastUpdated: '2026-01-01T10:05:00Z' },
    });
    expect(mergeMessages([read], [old])[0].status).toBe('completed');
    expect(mergeMessages([old], [read])[0].status).toBe('completed');
  });

  it('keeps what is shown when a reload returns less (a notification raced the reload)', () => {
    const a = message('a', '2026-01-01T10:00:00Z');
    const live = message('b', '2026-01-01T10:01:00Z');
    expect(mergeMessages([a, live], [a]).map((m) => m.id)).toEqual(['a', 'b']);
  });

  it('ignores entries without an id', () => {
    expect(mergeMessages([], [{ resourceType: 'Communication', status: 'completed' }])).toEqual([]);
  });
});

describe('groupByTimeHeader', () => {
  it('starts a new header after a 10-minute pause, not before', () => {
    const groups = groupByTimeHeader([
      message('1', '2026-01-01T10:00:00Z'),
      message('2', '2026-01-01T10:09:00Z'),
      message('3', '2026-01-01T10:19:01Z'),
    ]);
    expect(groups.map((g) => g.messages.map((m) => m.id))).toEqual([['1', '2'], ['3']]);
    expect(groups[1].time).toBe('2026-01-01T10:19:01Z');
  });

  it('starts a new header on a new day even without a pause', () => {
    const late = new Date(2026, 0, 1, 23, 58).toISOString();
    const early = new Date(2026, 0, 2, 0, 1).toISOString();
    expect(groupByTimeHeader([message('1', late), message('2', early)])).toHaveLength(2);
  });

  it('gives no groups for no messages', () => {
    expect(groupByTimeHeader([])).toEqual([]);
  });
});

describe('own messages and senders', () => {
  const mine = message('1', '2026-01-01T10:00:00Z', { sender: { reference: 'Practitioner/p1', display: 'Dr. A' } });
  it('is own only when the sender is the signed-in profile', () => {
    expect(isOwnMessage(mine, { reference: 'Practitioner/p1' })).toBe(true);
    expect(isOwnMessage(mine, { reference: 'Practitioner/p2' })).toBe(false);
    expect(isOwnMessage(mine, undefined)).toBe(false);
    expect(isOwnMessage(message('2', '2026-01-01T10:00:00Z'), { reference: 'Practitioner/p1' })).toBe(false);
  });

  it('names the sender, or says it is unknown', () => {
    expect(senderName(mine)).toBe('Dr. A');
    expect(senderName(message('2', '2026-01-01T10:00:00Z', { sender: { reference: 'Patient/x' } }))).toBe(
      UNKNOWN_SENDER,
    );
    expect(senderName(message('3', '2026-01-01T10:00:00Z', { sender: { display: '  ' } }))).toBe('[Unknown sender]');
  });

  it('names a sender written as a bare reference by the looked-up name, never by the reference', () => {
    const bare = message('4', '2026-01-01T10:00:00Z', { sender: { reference: 'Practitioner/623dda6d' } });
    const names = new Map([['Practitioner/623dda6d', 'Dr. Alice Carter']]);
    expect(senderName(bare, { names })).toBe('Dr. Alice Carter');
    expect(senderName(bare, { names: new Map() })).toBe(UNKNOWN_SENDER);
  });

  it('for the patient, calls a clinic sender she may not look up her care team; her own name stays hers', () => {
    const patientReader = { patient: { reference: 'Patient/pat-1' }, careTeam: 'Demo Clinic care team' };
    const bare = message('4', '2026-01-01T10:00:00Z', { sender: { reference: 'Practitioner/623dda6d' } });
    expect(senderName(bare, { patientReader })).toBe('Demo Clinic care team');
    expect(senderName(message('5', 'x', { sender: { reference: 'Patient/pat-1' } }), { patientReader })).toBe(
      UNKNOWN_SENDER,
    );
    // No sender at all is still unknown (app-spec §2.12), even to her.
    expect(senderName(message('6', 'x'), { patientReader })).toBe(UNKNOWN_SENDER);
  });

  it('looks up only the senders without a display, each once, as local references', () => {
    expect(
      sendersToLookUp([
        message('1', 'x', { sender: { reference: 'Practitioner/b' } }),
        message('2', 'x', { sender: { reference: 'Practitioner/a' } }),
        message('3', 'x', { sender: { reference: 'Practitioner/b' } }),
        message('4', 'x', { sender: { reference: 'Practitioner/c', display: 'Dr. C' } }),
        message('5', 'x', { sender: { reference: 'https://other.example/fhir/Practitioner/d' } }),
        message('6', 'x'),
      ]),
    ).toEqual(['Practitioner/a', 'Practitioner/b']);
  });

  it('joins the text parts', () => {
    expect(messageText(message('1', 'x', { payload: [{ contentString: 'a' }, { contentString: 'b' }] }))).toBe('a\nb');
    expect(messageText(message('1', 'x'))).toBe('');
  });
});

describe('messageSide: the patient on one side, the clinic on the other', () => {
  const patient = { reference: 'Patient/pat1' };
  const alice = { reference: 'Practitioner/alice', display: 'Dr. Alice Carter' };
  const ben = { reference: 'Practitioner/ben', display: 'Mr. Ben Okafor' };
  const fromAlice = message('1', '2026-01-01T10:00:00Z', { sender: alice });
  const fromBen = message('2', '2026-01-01T10:01:00Z', { sender: ben });
  const fromPatient = message('3', '2026-01-01T10:02:00Z', { sender: { ...patient, display: 'Wendy Littel' } });

  it("puts a colleague's message on the front desk's own side, the patient's on the other", () => {
    expect(messageSide(fromAlice, ben, patient)).toBe('ours');
    expect(messageSide(fromBen, ben, patient)).toBe('ours');
    expect(messageSide(fromPatient, ben, patient)).toBe('theirs');
  });

  it('puts the clinic on the left and her own messages on the right for the patient', () => {
    expect(messageSide(fromPatient, patient, patient)).toBe('ours');
    expect(messageSide(fromAlice, patient, patient)).toBe('theirs');
    expect(messageSide(fromBen, patient, patient)).toBe('theirs');
  });

  it('keeps a message of no known sender on the clinic side (it is not from the patient)', () => {
    const anonymous = message('4', '2026-01-01T10:03:00Z');
    expect(messageSide(anonymous, alice, patient)).toBe('ours');
    expect(messageSide(anonymous, patient, patient)).toBe('theirs');
  });

  it('reads as staff when nobody is signed in to write (replies disabled)', () => {
    expect(messageSide(fromAlice, undefined, patient)).toBe('ours');
    expect(messageSide(fromPatient, undefined, patient)).toBe('theirs');
  });
});

describe('newChatMessage', () => {
  it('builds the Communication of app-spec §3', () => {
    const now = new Date('2026-02-03T04:05:06Z');
    const created = newChatMessage({
      text: '  Hello  ',
      sender: { reference: 'Practitioner/p1', display: 'Dr. A' },
      patient: { reference: 'Patient/x', display: 'Pat' },
      recipient: { reference: 'Patient/x' },
      now,
    });
    expect(created).toEqual({
      resourceType: 'Communication',
      status: 'in-progress',
      sender: { reference: 'Practitioner/p1', display: 'Dr. A' },
      subject: { reference: 'Patient/x', display: 'Pat' },
      recipient: [{ reference: 'Patient/x' }],
      sent: '2026-02-03T04:05:06.000Z',
      payload: [{ contentString: 'Hello' }],
    });
  });

  it('carries an attachment and no empty text part', () => {
    const created = newChatMessage({
      text: ' ',
      sender: { reference: 'Patient/x' },
      patient: { reference: 'Patient/x' },
      attachment: { contentType: 'image/png', url: 'Binary/1', title: 'a.png' },
    });
    expect(created.payload).toEqual([
      { contentAttachment: { contentType: 'image/png', url: 'Binary/1', title: 'a.png' } },
    ]);
    expect(created.recipient).toBeUndefined();
  });

  it('searches and subscribes by subject', () => {
    expect(conversationQuery('x')).toBe('subject=Patient/x&_sort=-sent&_count=100');
    expect(conversationCriteria('x')).toBe('Communication?subject=Patient/x');
  });
});

describe('replyRecipient', () => {
  const patient = { reference: 'Patient/x' };
  it('sends staff messages to the patient', () => {
    expect(replyRecipient([], { reference: 'Practitioner/p1' }, patient)).toBe(patient);
  });
  it('answers the clinician who wrote last, for the patient', () => {
    const messages = [
      message('1', '2026-01-01T10:00:00Z', { sender: { reference: 'Practitioner/p1', display: 'Dr. A' } }),
      message('2', '2026-01-01T10:01:00Z', { sender: { reference: 'Practitioner/p2', display: 'Dr. B' } }),
      message('3', '2026-01-01T10:02:00Z', { sender: { reference: 'Patient/x' } }),
    ];
    expect(replyRecipient(messages, patient, patient)).toEqual({ reference: 'Practitioner/p2', display: 'Dr. B' });
    expect(replyRecipient([messages[2]], patient, patient)).toBeUndefined();
  });
});

describe('reading messages', () => {
  const me = { reference: 'Practitioner/p1' };
  it('finds the messages to me that are not read yet', () => {
    const toMe = message('1', '2026-01-01T10:00:00Z', { sender: { reference: 'Patient/x' }, recipient: [me] });
    const read = { ...toMe, id: '2', status: 'completed' as const };
    const toOther = message('3', '2026-01-01T10:00:00Z', { recipient: [{ reference: 'Practitioner/p2' }] });
    const mine = message('4', '2026-01-01T10:00:00Z', { sender: me, recipient: [me] });
    expect(unreadFor([toMe, read, toOther, mine], me).map((m) => m.id)).toEqual(['1']);
    expect(unreadFor([toMe], undefined)).toEqual([]);
  });
  it('marks a message read once, keeping the first received time', () => {
    const now = new Date('2026-03-01T00:00:00Z');
    expect(markedRead(message('1', 'x'), now)).toMatchObject({
      status: 'completed',
      received: '2026-03-01T00:00:00.000Z',
    });
    expect(markedRead(message('1', 'x', { received: '2026-01-01T00:00:00Z' }), now).received).toBe(
      '2026-01-01T00:00:00Z',
    );
  });
});
