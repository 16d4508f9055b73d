import type { Annotation } from '@medplum/fhirtypes';
import { TASK_NOTE_DATE_LENGTH } from '../../config/clinical/taskLayout';

/** Notes newest first (app-spec §2.4); notes without a time keep their order after the dated ones. */
export function notesNewestFirst(notes: readonly Annotation[] | undefined): Annotation[] {
  return (notes ?? [])
    .map((note, index) => ({ note, index }))
    .sort((a, b) => {
      const at = a.note.time ?? '';
      const bt = b.note.time ?? '';
      if (at !== bt) return at < bt ? 1 : -1;
      return b.index - a.index;
    })
    .map(({ note }) => note);
}

/** A note's citation: its author and the first 10 characters of its date. */
export function noteCitation(note: Annotation): string {
  const author =
    note.authorReference?.display ?? note.authorReference?.reference ?? note.authorString ?? 'Unknown author';
  const date = note.time?.slice(0, TASK_NOTE_DATE_LENGTH);
  return date ? `${author} · ${date}` : author;
}
