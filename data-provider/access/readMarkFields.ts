/**
 * The Communication elements a read mark leaves as they were: everything but `status` (to
 * `completed`) and `received` (custom-screens/chat/chatMessages.ts markedRead), and `meta`, which
 * the server writes. A patient's policy grants the update of a message to her only for the read
 * mark, with these as `readonlyFields`, so that marking a message read cannot rewrite what the
 * clinic said to her, whom it was from or when (server/seed/patientPortalPolicy.test.ts replays it).
 */
export const fieldsFixedByReadMark: readonly string[] = [
  'implicitRules',
  'language',
  'text',
  'contained',
  'extension',
  'modifierExtension',
  'identifier',
  'instantiatesCanonical',
  'instantiatesUri',
  'basedOn',
  'partOf',
  'inResponseTo',
  'statusReason',
  'category',
  'priority',
  'medium',
  'subject',
  'topic',
  'about',
  'encounter',
  'sent',
  'recipient',
  'sender',
  'reasonCode',
  'reasonReference',
  'payload',
  'note',
];

/** The statuses a message to a patient may have before and after her read mark. */
export const readMarkStatuses = 'in-progress,completed';
