import type { DiagnosticReport } from '@medplum/fhirtypes';
import { inlineTextOf } from '../../../data-provider/formatting';

/** How many result names a timeline entry lists before it says how many more there are. */
const NAMED_RESULTS = 3;
/** How much of a written report the entry quotes; "Show report" has the rest. */
const NOTE_OPENING_LENGTH = 160;

/** A note's first words worth reading: not its date line, headings or blank lines. */
function openingOf(note: string): string {
  const lines = note
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#') && !/^\d{4}-\d{2}-\d{2}(?:[T ][\d:.+\-Z]*)?$/.test(line));
  const text = lines.join(' ').replace(/\s+/g, ' ');
  return text.length > NOTE_OPENING_LENGTH ? `${text.slice(0, NOTE_OPENING_LENGTH - 1).trimEnd()}…` : text;
}

/**
 * What a report says at a glance on the timeline, in place of a bare "Created": its conclusion,
 * which results it holds ("4 results: Total Cholesterol, Triglycerides, … and 1 more"), else the
 * opening of its written text (a clinical note). An imported history is mostly reports, and thirty
 * entries that each read "Created" told the clinician nothing. Empty when the report says none.
 */
export function reportSummary(report: DiagnosticReport): string[] {
  const lines: string[] = [];
  const conclusion = report.conclusion?.trim();
  if (conclusion) lines.push(conclusion);
  const results = report.result ?? [];
  if (results.length > 0) {
    const names = results.map((result) => result.display?.trim()).filter((name): name is string => !!name);
    const count = `${results.length} ${results.length === 1 ? 'result' : 'results'}`;
    const shown = names.slice(0, NAMED_RESULTS);
    const more = results.length - shown.length;
    lines.push(shown.length ? `${count}: ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}` : count);
  }
  if (lines.length === 0) {
    const note = (report.presentedForm ?? []).map(inlineTextOf).find((text) => text?.trim());
    const opening = note ? openingOf(note) : '';
    if (opening) lines.push(opening);
  }
  return lines;
}
