import type { TypeSchema } from '../resources/typeSchema';
import { DEFAULT_FIELDS } from './searchState';

/**
 * The elements a person reads a record by, in the order they read them: what it is called, what it
 * is, its state, whom it is about, when. The first of each group the type has becomes a column.
 */
const READABLE_GROUPS: readonly (readonly string[])[] = [
  // A canonical resource's `title` is its human name; its `name` is for machines and often left out.
  ['title', 'name', 'description'],
  ['code', 'type', 'category'],
  ['status', 'active'],
  // An Appointment has no subject: its patient is among its participants.
  ['subject', 'patient', 'for', 'beneficiary', 'individual', 'participant'],
  [
    'birthDate',
    'effective[x]',
    'occurrence[x]',
    'onset[x]',
    'authoredOn',
    'date',
    'issued',
    'period',
    'start',
    'created',
    'sent',
    'recorded',
  ],
  ['gender'],
];

/** At most this many readable columns, so the list stays one line per record. */
const MAX_READABLE = 5;

/**
 * The columns a list of the type opens with when the address names none: the readable elements of
 * the type's schema (Patient: name, birth date, gender), then Last Updated; `_id` and Last Updated
 * (app-spec §2.6) for a type that has none of them, or while the schema loads.
 */
export function defaultColumns(schema: TypeSchema | undefined): string[] {
  if (!schema) return [...DEFAULT_FIELDS];
  const paths = new Set(schema.topLevel.map((element) => element.path));
  const readable = READABLE_GROUPS.flatMap((group) => group.find((path) => paths.has(path)) ?? []).slice(
    0,
    MAX_READABLE,
  );
  return readable.length ? [...readable, '_lastUpdated'] : [...DEFAULT_FIELDS];
}
