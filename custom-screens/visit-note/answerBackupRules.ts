import type { Questionnaire, QuestionnaireResponse } from '@medplum/fhirtypes';
import { answersQuestionnaire } from './draftRules';

/**
 * Browser copies of questionnaire answers the server does not have yet (a reload must not lose
 * them): where they are kept, and which copy wins when a form opens. Pure; the storage is in
 * answerBackupStore.ts, the React side in useAnswerBackup.ts.
 */
export const ANSWER_BACKUP_KEY_PREFIX = 'hearth.questionnaireAnswers.';

/** The version of a server draft that a browser copy continues. */
export interface ServerVersion {
  id: string;
  versionId?: string;
  lastUpdated?: string;
}

export interface AnswerBackup {
  /** When the answers were last changed, by this browser's clock (ISO 8601). */
  changedAt: string;
  /** The server draft these answers were typed on top of, when there was one. */
  basis?: ServerVersion;
  /** The in-progress response as the form built it. */
  response: QuestionnaireResponse;
}

/**
 * Every key starts with the signed-in account's profile (`Practitioner/{id}`) and a `|`: two
 * accounts of one browser never read each other's copies, and sign-out finds its own by prefix
 * (the `|` keeps `Practitioner/a` from matching `Practitioner/ab`).
 */
export function accountKeyPrefix(prefix: string, account: string): string {
  return `${prefix}${account}|`;
}

/** The visit note of one patient on one questionnaire (its canonical URL, else its id). */
export function visitNoteBackupKey(
  account: string,
  patientId: string,
  questionnaire: Pick<Questionnaire, 'url' | 'id'>,
): string {
  const form = questionnaire.url ?? `Questionnaire/${questionnaire.id ?? ''}`;
  return `${accountKeyPrefix(ANSWER_BACKUP_KEY_PREFIX, account)}Patient/${patientId}|${form}`;
}

/** The questionnaire of one task's "fill" action. */
export function taskFillBackupKey(account: string, taskId: string): string {
  return `${accountKeyPrefix(ANSWER_BACKUP_KEY_PREFIX, account)}Task/${taskId}`;
}

/** Is `key` one of `account`'s keys under any of `prefixes`? */
export function isAccountKey(key: string, account: string, prefixes: readonly string[]): boolean {
  return prefixes.some((prefix) => key.startsWith(accountKeyPrefix(prefix, account)));
}

/** The version of a stored draft, for a copy typed on top of it. */
export function serverVersionOf(draft: QuestionnaireResponse | undefined): ServerVersion | undefined {
  if (!draft?.id) return undefined;
  return { id: draft.id, versionId: draft.meta?.versionId, lastUpdated: draft.meta?.lastUpdated };
}

/** A stored copy, or undefined when the text is missing or not one (written by something else). */
export function parseAnswerBackup(text: string | null | undefined): AnswerBackup | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as Partial<AnswerBackup> | null;
    if (
      typeof value?.changedAt !== 'string' ||
      value.response?.resourceType !== 'QuestionnaireResponse' ||
      (value.basis !== undefined && typeof value.basis?.id !== 'string')
    ) {
      return undefined;
    }
    return value as AnswerBackup;
  } catch {
    return undefined;
  }
}

/** Does the copy answer this questionnaire? (A task's focus may have changed since it was typed.) */
export function backupFitsQuestionnaire(backup: AnswerBackup, questionnaire: Pick<Questionnaire, 'url' | 'id'>) {
  return answersQuestionnaire(backup.response, questionnaire.url, questionnaire.id);
}

/** The same answers (the form builds items in the questionnaire's order, so JSON compares them). */
export function sameAnswers(a: QuestionnaireResponse, b: QuestionnaireResponse): boolean {
  return JSON.stringify(a.item ?? []) === JSON.stringify(b.item ?? []);
}

export type OpeningAnswers =
  /** The server's draft (or a fresh form); a browser copy, if any, is stale and is dropped. */
  | { source: 'server'; response: QuestionnaireResponse | undefined; dropBackup: boolean }
  /** The browser's copy has answers the server does not: restore it (and save it). */
  | { source: 'browser'; response: QuestionnaireResponse };

/**
 * Which answers a form opens with, given the server's draft and this browser's copy:
 *
 * - no copy: the server's draft;
 * - the copy holds the draft's answers: the server has them, the copy is dropped;
 * - the copy was typed on top of the very version the server has: the copy (it is that version
 *   plus what was not saved) — decided by versions, so the two clocks do not matter;
 * - no server draft: the copy (never saved, or its draft was completed or deleted since; the
 *   answers would be lost otherwise, and they are saved as a new draft);
 * - otherwise the draft moved on elsewhere (another tab or machine): the newer of the two wins.
 *
 * The restored response takes the server draft's id and meta, so saving it updates that draft.
 */
export function openingAnswers(
  server: QuestionnaireResponse | undefined,
  backup: AnswerBackup | undefined,
): OpeningAnswers {
  if (!backup) return { source: 'server', response: server, dropBackup: false };
  const { id: _id, meta: _meta, ...answers } = backup.response;
  const restored = (): OpeningAnswers => ({
    source: 'browser',
    response: server ? { ...answers, id: server.id, meta: server.meta } : answers,
  });
  if (!server) return restored();
  if (sameAnswers(backup.response, server)) return { source: 'server', response: server, dropBackup: true };
  const basis = backup.basis;
  if (basis && basis.id === server.id && basis.versionId === server.meta?.versionId) return restored();
  const serverTime = Date.parse(server.meta?.lastUpdated ?? '');
  const browserTime = Date.parse(backup.changedAt);
  if (!Number.isNaN(serverTime) && !(browserTime > serverTime)) {
    return { source: 'server', response: server, dropBackup: true };
  }
  return restored();
}
