/** What every datatype input takes: its value, a change callback and the form's decorations. */
export interface InputProps<T> {
  /** Visible label and accessible name. */
  label: string;
  /** FHIRPath-style path of the element (`Patient.name`), for error matching and ids. */
  path: string;
  value: T | undefined;
  onChange: (value: T | undefined) => void;
  disabled?: boolean;
  required?: boolean;
  error?: string;
}

/** True for values the form treats as absent: undefined, '', [], {} (and objects of only such values). */
export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (typeof value === 'number') return Number.isNaN(value);
  if (Array.isArray(value)) return value.every(isEmptyValue);
  if (typeof value === 'object') return Object.values(value as object).every(isEmptyValue);
  return false;
}

/**
 * True for a value that holds array rows, even empty ones: a row the user just added (Add inside an
 * empty backbone element, `{ actor: [{}] }`) is kept, so the row shows, until the form drops empty
 * placeholders on save.
 */
export function holdsRows(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object' && value !== null) return Object.values(value).some(holdsRows);
  return false;
}

/**
 * `object` with `key` set to `value` — or without `key` when the value is empty — leaving every
 * other key (including ones the form does not show) untouched. A value holding array rows the user
 * added is kept though its rows are still empty (see holdsRows).
 */
export function withField<T extends object>(object: T | undefined, key: string, value: unknown): T | undefined {
  const next = { ...(object ?? {}) } as Record<string, unknown>;
  if (isEmptyValue(value) && !holdsRows(value)) delete next[key];
  else next[key] = value;
  return Object.keys(next).length ? (next as T) : undefined;
}

/** Space-separated list ↔ array (HumanName prefix, given, suffix). */
export function splitWords(text: string): string[] | undefined {
  const words = text.split(/\s+/).filter(Boolean);
  return words.length ? words : undefined;
}

/**
 * The DOM id of the input at `path`: unique per rendered input, as paths carry array indexes
 * (`Patient.meta.profile[1]` → `field-Patient-meta-profile-1`) and a choice's chosen type
 * (`Consent.sourceReference`).
 */
export function inputId(path: string): string {
  return 'field-' + path.replace(/\[(\d+)\]/g, '-$1').replace(/[^A-Za-z0-9_-]/g, '-');
}

/**
 * The value without empty strings, objects and arrays (placeholders of the form), recursively.
 * Primitive-extension arrays (`_given`) are kept index-aligned with their values: a nulled slot stays null.
 */
export function stripEmpty<T>(value: T): T | undefined {
  if (value === '' || value === undefined) return undefined;
  if (value === null) return value;
  if (Array.isArray(value)) {
    const items = value.map((item) => (item === null ? null : stripEmpty(item))).filter((item) => item !== undefined);
    return (items.length ? items : undefined) as T | undefined;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as object)
      .map(([key, inner]) => [key, stripEmpty(inner)] as const)
      .filter(([, inner]) => inner !== undefined);
    return (entries.length ? Object.fromEntries(entries) : undefined) as T | undefined;
  }
  return value;
}
