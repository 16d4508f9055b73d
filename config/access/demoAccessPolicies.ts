import type { AccessPolicy } from '@medplum/fhirtypes';
import { fieldsFixedByReadMark, readMarkStatuses } from '../../data-provider/access';

/*
 * The demo clinic's access policies as the seed writes them today (server/seed/demoSeed.ts), kept
 * here as data so that the web app's tests sign in under the very policies the demo runs: a copy in
 * the tests would drift from the seed. Earlier versions, and the upgrade of a stored policy, stay
 * with the seed (server/seed/frontDeskPolicy.ts, patientPortalPolicy.ts).
 */

/**
 * The demo clinic's front desk (ben@…): scheduling, patients' contact details and their messages.
 *
 * The staff chat is kept live by a websocket Subscription on `Communication?subject=Patient/{id}`
 * (custom-screens/chat/useConversation.ts); without one, a patient's message never appeared in an
 * open chat. The entry allows exactly that kind: criteria starting `Communication?subject=Patient/`
 * (a string search matches a prefix — any further filter only narrows what front desk may read
 * anyway, and notifications are filtered by their policy), a websocket (a `rest-hook` to
 * `Bot/{id}` would run a bot), and only their own (`author`): another member's Subscription is not
 * theirs to read, change or delete. The header's live counts (Mail, Tasks) ask for a Subscription
 * only under an entry without criteria (src/shell/realtimeAccess.ts), so they stay plain counts.
 */
export const frontDeskPolicy: AccessPolicy = {
  resourceType: 'AccessPolicy',
  name: 'Front desk',
  resource: [
    // Registering a patient sets the MRN; changing it later would re-file the chart (and the
    // records that other systems hold under it), so an update leaves it as it is. Entries' read-only
    // fields count for the interactions they grant: one entry for both would refuse every new patient.
    // No delete: a chart is kept, not removed, by the front desk.
    { resourceType: 'Patient', interaction: ['read', 'vread', 'history', 'search', 'create'] },
    {
      resourceType: 'Patient',
      interaction: ['read', 'vread', 'history', 'search', 'update'],
      readonlyFields: ['identifier'],
    },
    { resourceType: 'Appointment' },
    { resourceType: 'Schedule' },
    { resourceType: 'Slot' },
    { resourceType: 'Communication' },
    { resourceType: 'Task', criteria: 'Task?status=requested,ready,in-progress,on-hold,completed' },
    { resourceType: 'Practitioner', readonly: true },
    { resourceType: 'Organization', readonly: true },
    { resourceType: 'Encounter', readonly: true, hiddenFields: ['reasonCode', 'diagnosis'] },
    {
      resourceType: 'Subscription',
      criteria: 'Subscription?criteria=Communication?subject=Patient/&type=websocket&author=%profile',
    },
  ],
};

/**
 * The demo project's policy for patients: their own record to read (but not the care team's working
 * material in it, below), and to write only what the portal writes — their chat messages, the read
 * mark on a message to them, and the live-chat Subscription — plus the medication catalogue to read.
 *
 * - Their compartment is read-only: a patient who could write it could make up a potassium of 9.9,
 *   change an order or delete a result (server/seed/patientPortalPolicy.test.ts replays each).
 * - A type's own entries replace the `*` entry for it (data-provider/access/accessPolicy.ts), so
 *   Communication repeats the read of the compartment (of her conversation only, below). Its write
 *   entries are OR-ed per interaction, and a write must match one granting it on the stored version
 *   (update, delete) and on the version written (server/fhir/repository.ts checkWritable,
 *   checkWritten). She may **create** a message
 *   from her, about her, not yet read (`status=in-progress`), and **update** a message to her about
 *   her — the read mark (custom-screens/chat/chatMessages.ts markedRead). She deletes none, changes
 *   none of her own once sent, and cannot create a message in a clinician's name (the update entry
 *   grants no create). The read mark's entry keeps every other field of the message as it was
 *   (`readonlyFields`, data-provider/access/readMarkFields.ts) and its status in-progress or
 *   completed: marking a message read cannot rewrite what the clinic said, or hide it.
 * - A Subscription is in no patient's compartment, so the patient may make (and see) only the one
 *   that watches their own conversation — matched `:exact`: a string search matches a prefix, and
 *   `Communication?subject=Patient/me,Patient/other` starts with the allowed criteria — over a
 *   websocket (a `rest-hook` to `Bot/{id}` would run a bot of the clinic on her messages), and
 *   only the ones she made (`author`): a clinician's Subscription on her conversation has the same
 *   criteria, and is not hers to read, change or delete. Notifications are still filtered by her
 *   Communication read entries (server/realtime/subscriberAccess.ts): a message between staff about
 *   her matches the criteria and reaches her socket no more than her search.
 * - A Medication is in no patient's compartment either: an order that points at one
 *   (`medicationReference`, as imported Synthea records and many other systems write them) named
 *   no drug to the patient. Medication is catalogue data — code, form, ingredients, no subject — so
 *   a patient may read and search the project's Medications, and write none. What names a patient
 *   (the MedicationRequest) stays behind the compartment: `_has` and `_revinclude` from Medication
 *   only reach the patient's own orders (server/seed/patientPortalPolicy.test.ts replays both).
 * - No Media or Binary writes: the portal offers no paperclip (custom-screens/chat/ChatPanel.tsx);
 *   the files the clinic sends are read through the compartment their security context gives them.
 * - Her compartment also holds the care team's working material about her, which is not hers to
 *   read until the clinic is done with it: the clinician's visit-note draft (an in-progress
 *   QuestionnaireResponse, custom-screens/visit-note), the staff's Tasks about her and their internal
 *   notes, and messages between staff that name her as their subject. A type's own entries replace
 *   the `*` entry for it, so these types read only the rows their criteria allow:
 *   - QuestionnaireResponse: `completed` or `amended` — a draft (in-progress, stopped) or one marked
 *     entered-in-error is not. The portal lets her fill none (she writes no QuestionnaireResponse),
 *     so there is no draft of her own to show her.
 *   - Task: only the ones she owns (`owner`). The portal lists no Task (the chart's Tasks tab and the
 *     timeline's tasks are the care team's: config/clinical/chartTabs.ts, chart/timeline).
 *   - Communication: the ones from her or to her (`sender`, `recipient`): her conversation, which is
 *     all the chat and the timeline show her. A message between staff about her is neither.
 *   - Composition (`final`, `amended`) and ClinicalImpression (`completed`): a preliminary document or
 *     an assessment in progress is a draft. The app writes neither today; imported records may.
 *   Criteria are judged on the current row, so she reads no earlier version of these types (a
 *   completed note's draft versions included): AccessGuard.allowsVersion, server/auth/accessGuard.ts.
 */
export const patientPortalPolicy: AccessPolicy = {
  resourceType: 'AccessPolicy',
  name: 'Patient portal',
  resource: [
    { resourceType: '*', compartment: { reference: '%profile' }, readonly: true },
    {
      resourceType: 'QuestionnaireResponse',
      compartment: { reference: '%profile' },
      criteria: 'QuestionnaireResponse?status=completed,amended',
      readonly: true,
    },
    { resourceType: 'Task', compartment: { reference: '%profile' }, criteria: 'Task?owner=%profile', readonly: true },
    {
      resourceType: 'Composition',
      compartment: { reference: '%profile' },
      criteria: 'Composition?status=final,amended',
      readonly: true,
    },
    {
      resourceType: 'ClinicalImpression',
      compartment: { reference: '%profile' },
      criteria: 'ClinicalImpression?status=completed',
      readonly: true,
    },
    {
      resourceType: 'Communication',
      compartment: { reference: '%profile' },
      criteria: 'Communication?sender=%profile',
      readonly: true,
    },
    {
      resourceType: 'Communication',
      compartment: { reference: '%profile' },
      criteria: 'Communication?recipient=%profile',
      readonly: true,
    },
    {
      resourceType: 'Communication',
      compartment: { reference: '%profile' },
      criteria: 'Communication?sender=%profile&subject=%profile&status=in-progress',
      interaction: ['create'],
    },
    {
      resourceType: 'Communication',
      compartment: { reference: '%profile' },
      criteria: `Communication?recipient=%profile&subject=%profile&status=${readMarkStatuses}`,
      interaction: ['update'],
      readonlyFields: [...fieldsFixedByReadMark],
    },
    {
      resourceType: 'Subscription',
      criteria: 'Subscription?criteria:exact=Communication?subject=%profile&type=websocket&author=%profile',
    },
    { resourceType: 'Medication', readonly: true },
  ],
};
