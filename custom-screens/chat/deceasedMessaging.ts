import { readableDate } from '../../data-provider/formatting';
import { isDeceased, type VitalStatus } from '../../data-provider/rules';

/** Who is reading the conversation: the clinic's staff, or the patient's own portal login. */
export type ChatReader = 'staff' | 'patient';

/** Why a conversation takes no new messages, in the words its reader is shown. */
export interface MessagingClosed {
  /** The notice's title, read first. */
  title: string;
  /** The notice's sentence: what still works and what does not. */
  detail: string;
  /** Beside the disabled message box, so the box never looks broken. */
  reason: string;
}

/** 'Died 3 Mar 2024' (the chart header's date style), or 'Deceased' when no date was recorded. */
export function deceasedTitle(patient: VitalStatus): string {
  return patient.deceasedDateTime ? `Died ${readableDate(patient.deceasedDateTime)}` : 'Deceased';
}

export const STAFF_DECEASED_DETAIL =
  'This patient has died. Earlier messages stay readable; new messages and files cannot be sent.';
export const STAFF_DECEASED_REASON = 'Messages cannot be sent to a patient who has died.';
/**
 * The box's line where the page already says above the chat that the patient died, and when (the
 * chart's notice): a second banner of the same death, in other words, would read as a second problem.
 */
export const STAFF_CLOSED_BELOW_DEATH_NOTICE = 'Messaging is closed: the patient has died.';

/*
 * A portal login of a patient recorded as deceased is someone else using their account (a relative)
 * or a record marked in error: telling the reader "you have died" would be wrong or cruel either way.
 * The wording only says messaging is closed and sends them to the clinic, who can correct the record
 * or speak with the family.
 */
export const PORTAL_CLOSED_TITLE = 'Messaging is closed for this account';
export const PORTAL_CLOSED_DETAIL =
  'Earlier messages stay readable, but new messages cannot be sent from this account. Please contact the clinic directly; if you think this is a mistake, tell them so.';
export const PORTAL_CLOSED_REASON = 'Messaging is closed for this account.';

/**
 * Whether the conversation of `patient` takes new messages: undefined while the patient is alive;
 * for a patient who died, what the reader is told. Patient portals deactivate a deceased patient's
 * messaging, and a clinic message (a reminder, a result) reaching the family is the harm to avoid.
 */
export function deceasedMessaging(patient: VitalStatus | undefined, reader: ChatReader): MessagingClosed | undefined {
  if (!patient || !isDeceased(patient)) return undefined;
  if (reader === 'patient') {
    return { title: PORTAL_CLOSED_TITLE, detail: PORTAL_CLOSED_DETAIL, reason: PORTAL_CLOSED_REASON };
  }
  return { title: deceasedTitle(patient), detail: STAFF_DECEASED_DETAIL, reason: STAFF_DECEASED_REASON };
}
