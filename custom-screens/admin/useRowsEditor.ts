import { useEffect, useState, type FormEvent } from 'react';

/** Problems by row key, then by field. */
export type RowProblems = Record<string, Partial<Record<string, string>>>;

interface RowsEditorOptions<Row extends { key: string }, Problems extends RowProblems> {
  /** The stored rows, once loaded (undefined while loading). */
  stored: Row[] | undefined;
  /** Problems found before sending (none: send). */
  validate(rows: Row[]): Problems;
  submit(rows: Row[]): Promise<unknown>;
  savedMessage(rows: Row[]): string;
  /** The server's refusal as problems under rows, and what fits no row. */
  refusal(rows: Row[], error: unknown): { problems: Problems; general?: string };
}

/**
 * A list of rows saved together (project secrets, sites): filled once from what is stored — later
 * reloads never overwrite what is being typed — edited, validated, saved; a refused save keeps
 * every row as typed and puts the server's problems under their fields.
 */
export function useRowsEditor<Row extends { key: string }, Problems extends RowProblems>(
  options: RowsEditorOptions<Row, Problems>,
) {
  const [rows, setRows] = useState<Row[]>();
  const [problems, setProblems] = useState<Problems>({} as Problems);
  const [general, setGeneral] = useState<string>();
  const [saved, setSaved] = useState<string>();
  const [busy, setBusy] = useState(false);
  const { stored } = options;

  useEffect(() => {
    if (stored && rows === undefined) setRows(stored);
  }, [stored, rows]);

  const edit = (next: Row[]) => {
    setRows(next);
    setSaved(undefined);
  };

  return {
    rows,
    problems,
    general,
    saved,
    busy,
    change(key: string, patch: Partial<Row>) {
      setRows((current) => current?.map((row) => (row.key === key ? { ...row, ...patch } : row)));
      setSaved(undefined);
    },
    add(row: Row) {
      if (rows) edit([...rows, row]);
    },
    remove(key: string) {
      if (rows) edit(rows.filter((other) => other.key !== key));
    },
    async save(event: FormEvent) {
      event.preventDefault();
      if (!rows) return;
      const found = options.validate(rows);
      setProblems(found);
      setGeneral(undefined);
      setSaved(undefined);
      if (Object.keys(found).length > 0) return;
      setBusy(true);
      try {
        await options.submit(rows);
        setSaved(options.savedMessage(rows));
      } catch (error) {
        const refused = options.refusal(rows, error);
        setProblems(refused.problems);
        setGeneral(refused.general);
      } finally {
        setBusy(false);
      }
    },
  };
}
