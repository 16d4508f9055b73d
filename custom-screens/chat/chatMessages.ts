import type { Communication, Reference } from '@medplum/fhirtypes';

/** A message needs its own header when it comes this long after the one before it (or on another day). */
export const TIME_HEADER_GAP_MS = 10 * 60 * 1000;

export const UNKNOWN_SENDER = '[Unknown sender]';

function sentTime(message: Communication): number {
  const time = Date.parse(message.sent ?? message.meta?.lastUpdated ?? '');
  return Number.isNaN(time) ? 0 : time;
}

function versionOf(message: Communication): number {
  const updated = Date.parse(message.meta?.lastUpdated ?? '');
  return Number.isNaN(updated) ? 0 : updated;
}

/**
 * The conversation after `incoming` arrives (a reload, a notification or a message just sent):
 * one entry per id, the later version winning, oldest first. A reload after a reconnect and a
 * notification for the same message therefore never show it twice, and nothing already shown
 * is dropped by a reload that raced a notification.
 */
export function mergeMessages(existing: readonly Communication[], incoming: readonly Communication[]): Communication[] {
  const byId = new Map<string, Communication>();
  for (const message of [...existing, ...incoming]) {
    if (!message.id) continue;
    const known = byId.get(message.id);
    if (!known || versionOf(message) >= versionOf(known)) byId.set(message.id, message);
  }
  return [...byId.values()].sort((a, b) => sentTime(a) - sentTime(b) || (a.id ?? '').localeCompare(b.id ?? ''));
}

export interface MessageGroup {
  /** When the first message of the group was sent (ISO), shown as the group's time header. */
  time: string;
  messages: Communication[];
}

function sameDay(a: number, b: number): boolean {
  const first = new Date(a);
  const second = new Date(b);
  return (
    first.getFullYear() === second.getFullYear() &&
    first.getMonth() === second.getMonth() &&
    first.getDate() === second.getDate()
  );
}

/** Messages (oldest first) under time headers: a new header after a pause of 10 minutes or on a new day. */
export function groupByTimeHeader(messages: readonly Communication[]): MessageGroup[] {
  const groups: MessageGroup[] = [];
  let previous: number | undefined;
  for (const message of messages) {
    const time = sentTime(message);
    const current = groups.at(-1);
    if (!current || previous === undefined || time - previous > TIME_HEADER_GAP_MS || !sameDay(previous, time)) {
      groups.push({ time: message.sent ?? message.meta?.lastUpdated ?? '', messages: [message] });
    } else {
      current.messages.push(message);
    }
    previous = time;
  }
  return groups;
}

/** Did the signed-in profile write it (its bubble then needs no name above it)? */
export function isOwnMessage(message: Communication, profile: Reference | undefined): boolean {
  return !!profile?.reference && message.sender?.reference === profile.reference;
}

/** "ours": the reader's side of the conversation, on the right; "theirs": the other side, on the left. */
export type MessageSide = 'ours' | 'theirs';

/**
 * Which side a message sits on for whoever reads the conversation. A conversation has two sides,
 * the patient and the clinic: a front desk reading a doctor's message reads the clinic's own words,
 * not the patient's, so everything not from the patient is on the staff reader's side. The patient
 * reading their own conversation sees the mirror image.
 */
export function messageSide(message: Communication, viewer: Reference | undefined, patient: Reference): MessageSide {
  const fromPatient = !!patient.reference && message.sender?.reference === patient.reference;
  const viewerIsPatient = !!patient.reference && viewer?.reference === patient.reference;
  return fromPatient === viewerIsPatient ? 'ours' : 'theirs';
}

/** Names of the resources senders point at, by `Type/id` (useSenderNames: one cached batch of searches). */
export type SenderNames = ReadonlyMap<string, string>;

/** What a sender is called where neither the message nor a lookup names them. */
export interface SenderNameContext {
  /** The senders' names the reader could look up. */
  names?: SenderNames;
  /**
   * The patient reading their own conversation: everyone else in it writes for the clinic, so a
   * sender whose record her policy keeps from her is still "the care team", not an unknown.
   */
  patientReader?: { patient: Reference; careTeam: string };
}

/**
 * Who sent it in words, or undefined when nothing says: the sender's own display; else the name of
 * the record it points at (an integration or bot writes a bare `Practitioner/…`); else, for the
 * patient, the care team. Never the bare reference, which says nothing to a reader.
 */
export function knownSenderName(message: Communication, context: SenderNameContext = {}): string | undefined {
  const sender = message.sender;
  const display = sender?.display?.trim();
  if (display) return display;
  const reference = sender?.reference?.trim();
  if (!reference) return undefined;
  const looked = context.names?.get(reference);
  if (looked) return looked;
  const reader = context.patientReader;
  if (reader && reference !== reader.patient.reference) return reader.careTeam;
  return undefined;
}

/** The clinic as the patient writes to it: her conversation's title, and whom its unnamed senders speak for. */
export function careTeamName(clinic: string | undefined): string {
  const name = clinic?.trim();
  return name ? `${name} care team` : 'Your care team';
}

/** Who sent it, for the chat's bubble; "[Unknown sender]" when nothing names them (app-spec §2.12). */
export function senderName(message: Communication, context: SenderNameContext = {}): string {
  return knownSenderName(message, context) ?? UNKNOWN_SENDER;
}

/** The senders a lookup must name: those written as a bare local `Type/id`, each once. */
export function sendersToLookUp(messages: readonly Communication[]): string[] {
  const references = new Set<string>();
  for (const message of messages) {
    if (message.sender?.display?.trim()) continue;
    const reference = message.sender?.reference?.trim() ?? '';
    if (/^[A-Z][A-Za-z]+\/[A-Za-z0-9\-.]{1,64}$/.test(reference)) references.add(reference);
  }
  return [...references].sort();
}

/** The text of a message: its contentString parts joined. */
export function messageText(message: Communication): string {
  return (message.payload ?? [])
    .map((part) => part.contentString)
    .filter((text): text is string => !!text)
    .join('\n');
}

export interface NewMessageInput {
  text: string;
  sender: Reference;
  patient: Reference;
  /** Whom it is for: the patient for staff messages, the clinician a patient answers. */
  recipient?: Reference;
  attachment?: NonNullable<Communication['payload']>[number]['contentAttachment'];
  now?: Date;
}

/**
 * A chat message (app-spec §3): in progress until read, from the signed-in profile, about the
 * patient, to the recipient, sent now, with the text (and an attachment) as payload.
 */
export function newChatMessage(input: NewMessageInput): Communication {
  const payload: NonNullable<Communication['payload']> = [];
  const text = input.text.trim();
  if (text) payload.push({ contentString: text });
  if (input.attachment) payload.push({ contentAttachment: input.attachment });
  return {
    resourceType: 'Communication',
    status: 'in-progress',
    sender: input.sender as Communication['sender'],
    subject: input.patient as Communication['subject'],
    ...(input.recipient ? { recipient: [input.recipient as NonNullable<Communication['recipient']>[number]] } : {}),
    sent: (input.now ?? new Date()).toISOString(),
    payload,
  };
}

/** The search of a patient's conversation (app-spec §7 'Chat'): by subject, newest first. */
export function conversationQuery(patientId: string): string {
  return `subject=Patient/${patientId}&_sort=-sent&_count=100`;
}

/** The realtime criteria of a patient's conversation (every message about the patient). */
export function conversationCriteria(patientId: string): string {
  return `Communication?subject=Patient/${patientId}`;
}

/**
 * Whom a new message goes to: staff write to the patient; a patient answers whoever of the clinic
 * wrote to them last (so it shows in that clinician's unread mail), else the message only has its
 * subject.
 */
export function replyRecipient(
  messages: readonly Communication[],
  sender: Reference | undefined,
  patient: Reference,
): Reference | undefined {
  if (sender?.reference !== patient.reference) return patient;
  for (let index = messages.length - 1; index >= 0; index--) {
    const from = messages[index].sender;
    if (from?.reference && from.reference !== patient.reference)
      return { reference: from.reference, display: from.display };
  }
  return undefined;
}

/** Messages to `profile` not yet marked read (status other than completed): opening the conversation reads them. */
export function unreadFor(messages: readonly Communication[], profile: Reference | undefined): Communication[] {
  if (!profile?.reference) return [];
  return messages.filter(
    (message) =>
      message.status !== 'completed' &&
      message.sender?.reference !== profile.reference &&
      (message.recipient ?? []).some((recipient) => recipient.reference === profile.reference),
  );
}

/** The message as read: completed, received now (app-spec §3 'received'). */
export function markedRead(message: Communication, now = new Date()): Communication {
  return { ...message, status: 'completed', received: message.received ?? now.toISOString() };
}
