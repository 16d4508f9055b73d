import type { QuestionnaireResponse } from '@medplum/fhirtypes';
import { OperationOutcomeError } from '../../data-provider/outcomes';

/**
 * Drafts saved from several tabs (or by several people) on one visit note: every save is
 * conditional on the version this tab last read or wrote, and a conflict is decided here. Pure;
 * the saving is in useDraftAutosave.ts, the words on screen in DraftConflictNotice.tsx.
 */

/** The server refused a write because the stored version is not the one sent (412), or a 409 conflict. */
export function isVersionConflict(error: unknown): boolean {
  return error instanceof OperationOutcomeError && (error.status === 412 || error.status === 409);
}

/** A stored response that is final: a draft save must never touch it. */
export function isSubmittedResponse(response: QuestionnaireResponse | undefined): boolean {
  return response?.status === 'completed' || response?.status === 'amended';
}

/** The If-Match header value for a stored version. */
export function ifMatchOf(versionId: string): string {
  return `W/"${versionId}"`;
}

/** How one draft save goes to the server. */
export type DraftWrite =
  /** No draft stored yet: create one. */
  | { kind: 'create'; body: QuestionnaireResponse }
  /** Update the stored draft, only if it is still at the version this tab knows. */
  | { kind: 'update'; body: QuestionnaireResponse; ifMatch: string }
  /** The stored draft's version is unknown (or it is final): writing could overwrite someone's save. */
  | { kind: 'refuse' };

/**
 * The write for `answers`, given `known`, the draft as this tab last read or wrote it. An update
 * always carries If-Match; without a version to send, or on a submitted response, nothing is
 * written (the caller treats it as a conflict and reads the latest).
 */
export function draftWrite(answers: QuestionnaireResponse, known: QuestionnaireResponse | undefined): DraftWrite {
  const { id: _id, meta: _meta, ...rest } = answers;
  const body: QuestionnaireResponse = { ...rest, status: 'in-progress' };
  if (!known?.id) return { kind: 'create', body };
  const version = known.meta?.versionId;
  if (!version || isSubmittedResponse(known)) return { kind: 'refuse' };
  return { kind: 'update', body: { ...body, id: known.id }, ifMatch: ifMatchOf(version) };
}

/**
 * The draft as stored after a save. A server that answers "nothing changed" (304) gives back no
 * meta: the version is then the one the save was conditional on.
 */
export function storedAfterSave(
  result: QuestionnaireResponse,
  known: QuestionnaireResponse | undefined,
): QuestionnaireResponse {
  if (result.meta?.versionId || !known?.meta?.versionId) return result;
  return { ...result, id: result.id ?? known.id, meta: known.meta };
}

/** What a tab whose save was refused learns from the latest stored version. */
export type DraftConflict =
  /** Someone saved another draft version meanwhile (or it is gone): this tab's text is kept, the clinician chooses. */
  | { kind: 'changed'; latest: QuestionnaireResponse | undefined }
  /** The note was submitted elsewhere: it is final, this tab's text stays read-only and unsent. */
  | { kind: 'submitted'; latest: QuestionnaireResponse };

export function conflictWith(latest: QuestionnaireResponse | undefined): DraftConflict {
  if (latest && isSubmittedResponse(latest)) return { kind: 'submitted', latest };
  return { kind: 'changed', latest };
}

/** When a submitted note was submitted: its `authored` (set by the submit), else when it was stored. */
export function submittedAt(latest: QuestionnaireResponse): string | undefined {
  return latest.authored ?? latest.meta?.lastUpdated;
}

/** Who submitted it: the author of the stored version, else the response's author. */
export function submitterReference(latest: QuestionnaireResponse): string | undefined {
  return latest.meta?.author?.reference ?? latest.author?.reference;
}

export const DRAFT_CONFLICT_TITLE = 'This visit note was changed in another tab or by someone else.';
export const DRAFT_CONFLICT_TEXT =
  'Your text here is kept, and is not saved while this message shows. Load their version to continue from it, or keep yours and save it over theirs.';
export const SUBMIT_CONFLICT_MESSAGE =
  'The visit note was not submitted: it was changed in another tab or by someone else since this page last saved it. Your answers are still here.';

/** "This visit note was submitted at {time} by {name}." */
export function submittedNoticeTitle(time: string | undefined, name: string | undefined): string {
  return `This visit note was submitted${time ? ` at ${time}` : ''}${name ? ` by ${name}` : ''}.`;
}

/**
 * The answers as plain text, one line per answered question (groups indented), for a clinician to
 * copy what this tab had not sent after the note was submitted elsewhere.
 */
export function answersAsText(response: QuestionnaireResponse | undefined): string {
  const lines: string[] = [];
  const walk = (items: QuestionnaireResponse['item'], depth: number) => {
    for (const item of items ?? []) {
      const indent = '  '.repeat(depth);
      const values = (item.answer ?? []).map(answerText).filter((v) => v !== '');
      if (values.length) lines.push(`${indent}${item.text ?? item.linkId}: ${values.join(', ')}`);
      else if (item.item?.length && item.text) lines.push(`${indent}${item.text}`);
      walk(item.item, depth + 1);
      for (const answer of item.answer ?? []) walk(answer.item, depth + 1);
    }
  };
  walk(response?.item, 0);
  return lines.join('\n');
}

type Answer = NonNullable<NonNullable<QuestionnaireResponse['item']>[number]['answer']>[number];

function answerText(answer: Answer): string {
  if (answer.valueString !== undefined) return answer.valueString;
  if (answer.valueBoolean !== undefined) return answer.valueBoolean ? 'Yes' : 'No';
  if (answer.valueCoding) return answer.valueCoding.display ?? answer.valueCoding.code ?? '';
  if (answer.valueQuantity) return `${answer.valueQuantity.value ?? ''} ${answer.valueQuantity.unit ?? ''}`.trim();
  if (answer.valueReference) return answer.valueReference.display ?? answer.valueReference.reference ?? '';
  if (answer.valueAttachment) return answer.valueAttachment.title ?? 'attachment';
  const primitive =
    answer.valueDecimal ??
    answer.valueInteger ??
    answer.valueDate ??
    answer.valueDateTime ??
    answer.valueTime ??
    answer.valueUri;
  return primitive === undefined ? '' : String(primitive);
}

/**
 * The version a form's saves are conditional on when it opens. Normally the server's draft as
 * read. Answers restored from this browser continue the version they were typed on (`basis`):
 * when the draft has moved on since (another tab saved), their first save is refused and the
 * clinician chooses, instead of the restored answers overwriting that save unseen.
 */
export function knownDraftAtOpening(
  server: QuestionnaireResponse | undefined,
  restoredFromBrowser: boolean,
  basis: { id: string; versionId?: string } | undefined,
): QuestionnaireResponse | undefined {
  if (!server || !restoredFromBrowser) return server;
  const sameDraft = !!basis && basis.id === server.id;
  if (sameDraft && basis.versionId === server.meta?.versionId) return server;
  return { ...server, meta: { ...server.meta, versionId: sameDraft ? basis.versionId : undefined } };
}
