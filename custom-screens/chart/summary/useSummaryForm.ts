import { useCallback, useState } from 'react';
import { hasErrors, type FieldErrors } from './rules/draftErrors';
import { saveErrors } from './rules/saveErrors';
import { useModalDraft, type ModalDraft } from './useModalDraft';

/** A save that failed for known fields (e.g. some vitals of a parallel save); the rest was saved. */
export class FieldSaveError<K extends string> extends Error {
  constructor(
    readonly fields: Partial<Record<K, string>>,
    readonly general: string[] = [],
  ) {
    super([...Object.values(fields), ...general].join('; '));
  }
}

/**
 * Thrown by a save that stopped before writing to ask the clinician something (the medication
 * modal's allergy and duplicate warnings): the draft stays, with no error shown.
 */
export class SaveHeld extends Error {
  constructor() {
    super('Waiting for the clinician');
  }
}

export interface SummaryFormOptions<T> {
  validate(draft: T): FieldErrors<keyof T & string> | { formError?: string; fields: FieldErrors<keyof T & string> };
  /** Writes the draft; throws on failure. `update` lets a partial save drop what it already saved. */
  save(draft: T, key: string, update: (patch: Partial<T>) => void): Promise<void>;
  /** Element paths of server issues (`Condition.onsetDateTime`) to the fields they belong under. */
  paths: Record<string, keyof T & string>;
}

export interface SummaryForm<T> {
  modal: ModalDraft<T>;
  fieldErrors: FieldErrors<keyof T & string>;
  generalErrors: string[];
  saving: boolean;
  open(key: string, fresh: () => T): void;
  /** Changes fields of the draft and clears their messages. */
  change(patch: Partial<T>): void;
  submit(): Promise<void>;
}

/**
 * The life of a summary modal: open with a kept or fresh draft, check the rules, save, and on
 * failure keep the draft and show the server's messages under the fields or at the top.
 */
export function useSummaryForm<T>(options: SummaryFormOptions<T>): SummaryForm<T> {
  type K = keyof T & string;
  const modal = useModalDraft<T>();
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<K>>({});
  const [generalErrors, setGeneralErrors] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const { validate, save, paths } = options;

  const open = useCallback(
    (key: string, fresh: () => T) => {
      setFieldErrors({});
      setGeneralErrors([]);
      modal.open(key, fresh);
    },
    [modal],
  );

  const change = useCallback(
    (patch: Partial<T>) => {
      modal.update(patch);
      setFieldErrors((current) => {
        const next = { ...current };
        for (const key of Object.keys(patch)) delete next[key as K];
        return next;
      });
    },
    [modal],
  );

  const submit = useCallback(async () => {
    const draft = modal.draft;
    const key = modal.openKey;
    if (draft === undefined || key === undefined) return;
    const checked = validate(draft);
    const fields = ('fields' in checked ? checked.fields : checked) as FieldErrors<K>;
    const formError = 'formError' in checked ? (checked.formError as string | undefined) : undefined;
    if (hasErrors(fields) || formError) {
      setFieldErrors(fields);
      setGeneralErrors(formError ? [formError] : []);
      return;
    }
    setSaving(true);
    setGeneralErrors([]);
    try {
      await save(draft, key, modal.update);
      modal.discard();
    } catch (error) {
      if (error instanceof SaveHeld) return;
      if (error instanceof FieldSaveError) {
        setFieldErrors(error.fields as FieldErrors<K>);
        setGeneralErrors(error.general);
      } else {
        const mapped = saveErrors<K>(error, paths);
        setFieldErrors(mapped.fields);
        setGeneralErrors(mapped.general);
      }
    } finally {
      setSaving(false);
    }
  }, [modal, validate, save, paths]);

  return { modal, fieldErrors, generalErrors, saving, open, change, submit };
}
