import type { ProjectSetting } from '@medplum/fhirtypes';
import { projectSettingNameProblem } from '../../data-provider/rules';

type ValueField = 'valueString' | 'valueBoolean' | 'valueDecimal' | 'valueInteger';

/** One editable line of the project secrets: the value as typed, and the type it is saved as. */
export interface SecretRow {
  key: string;
  name: string;
  value: string;
  field: ValueField;
}

export type SecretRowProblems = Record<string, { name?: string; value?: string }>;

let nextKey = 0;
export function newSecretRow(): SecretRow {
  nextKey += 1;
  return { key: `new-${nextKey}`, name: '', value: '', field: 'valueString' };
}

/** The rows of `Project.secret` as the admin may read them (values included, shown masked). */
export function secretRowsOf(settings: readonly ProjectSetting[] | undefined): SecretRow[] {
  return (settings ?? []).map((setting, index) => {
    const field: ValueField =
      setting.valueBoolean !== undefined
        ? 'valueBoolean'
        : setting.valueInteger !== undefined
          ? 'valueInteger'
          : setting.valueDecimal !== undefined
            ? 'valueDecimal'
            : 'valueString';
    const value = setting[field];
    return { key: `stored-${index}`, name: setting.name, value: value === undefined ? '' : String(value), field };
  });
}

function typedValue(row: SecretRow): string | number | boolean | undefined {
  const text = row.value.trim();
  switch (row.field) {
    case 'valueBoolean':
      return text === 'true' ? true : text === 'false' ? false : undefined;
    case 'valueInteger':
      return /^-?\d+$/.test(text) ? Number(text) : undefined;
    case 'valueDecimal':
      return text !== '' && Number.isFinite(Number(text)) ? Number(text) : undefined;
    default:
      return row.value;
  }
}

const typeWords: Record<ValueField, string> = {
  valueString: 'text',
  valueBoolean: 'true or false',
  valueInteger: 'a whole number',
  valueDecimal: 'a number',
};

/** What is wrong with each row, by its key: the name (the server's rule) and the value for its type. */
export function secretRowProblems(rows: readonly SecretRow[]): SecretRowProblems {
  const problems: SecretRowProblems = {};
  rows.forEach((row, index) => {
    const earlier = rows.slice(0, index).map((other) => other.name);
    const name = projectSettingNameProblem(row.name, earlier);
    const value =
      row.field === 'valueString'
        ? row.value === ''
          ? 'A value is required'
          : undefined
        : typedValue(row) === undefined
          ? `The value must be ${typeWords[row.field]}`
          : undefined;
    if (name || value) problems[row.key] = { ...(name ? { name } : {}), ...(value ? { value } : {}) };
  });
  return problems;
}

/** The body of `POST /admin/projects/{id}/secrets` (call only when there are no problems). */
export function projectSettingsOf(rows: readonly SecretRow[]): ProjectSetting[] {
  return rows.map((row) => ({ name: row.name, [row.field]: typedValue(row) }) as ProjectSetting);
}

/** A server issue `secret[2].name` as the row key and field it belongs under. */
export function secretIssueTarget(
  rows: readonly SecretRow[],
  expression: string,
): { key: string; field: 'name' | 'value' } | undefined {
  const match = /^secret\[(\d+)\](?:\.(\w+|value\[x\]))?/.exec(expression);
  const row = match ? rows[Number(match[1])] : undefined;
  if (!row) return undefined;
  return { key: row.key, field: match?.[2] === 'name' ? 'name' : 'value' };
}
