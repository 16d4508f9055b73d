import type { OperationOutcomeIssue } from '@medplum/fhirtypes';
import { choiceKey } from '../../schema-engine';
import { isEmptyValue } from '../datatypes/inputProps';
import { fieldLabel } from '../search/searchColumns';
import { childElements, type ElementSchema, type TypeSchema } from './typeSchema';

/**
 * What a row the user added to a backbone element (Appointment's "Participant 1") still lacks:
 * "Participant 1: Status is required" under the Status field. Without this, the form drops an
 * empty row on save and the server names the parent ("Missing required property participant"),
 * and a row with content is refused for a child the message does not point at.
 *
 * `draft` is the form's own value, with the rows the user added but left empty. Rows with content are checked, and so
 * are empty rows the element's minimum asks for (the first of a required element); an empty row
 * of an optional element is dropped on save as before. `skip` lists top-level elements the user
 * cannot change (hidden or read-only by policy): their rows are not theirs to complete.
 */
export function missingInRows(
  draft: Record<string, unknown>,
  schema: TypeSchema,
  skip: readonly string[] = [],
): OperationOutcomeIssue[] {
  const issues: OperationOutcomeIssue[] = [];
  for (const element of childElements(schema, '')) {
    if (skip.includes(element.name)) continue;
    checkElement(schema, element, draft[element.name], `${schema.type}.${element.name}`, '', issues);
  }
  return issues;
}

function rowChildren(schema: TypeSchema, element: ElementSchema): ElementSchema[] {
  if (element.readOnly || element.isChoice) return [];
  return childElements(schema, element.contentReference ?? element.path).filter((child) => child.name !== 'id');
}

function checkElement(
  schema: TypeSchema,
  element: ElementSchema,
  value: unknown,
  expression: string,
  labelPrefix: string,
  issues: OperationOutcomeIssue[],
): void {
  const children = rowChildren(schema, element);
  if (children.length === 0 || value === undefined || value === null) return;
  const label = labelPrefix + fieldLabel(element.name);
  if (Array.isArray(value)) {
    value.forEach((row, index) => {
      if (isEmptyValue(row) && index >= element.min) return;
      checkRow(schema, children, row, `${expression}[${index}]`, `${label} ${index + 1}`, issues);
    });
  } else if (!isEmptyValue(value)) {
    checkRow(schema, children, value, expression, label, issues);
  }
}

function checkRow(
  schema: TypeSchema,
  children: readonly ElementSchema[],
  row: unknown,
  expression: string,
  label: string,
  issues: OperationOutcomeIssue[],
): void {
  const values = (typeof row === 'object' && row !== null ? row : {}) as Record<string, unknown>;
  for (const child of children) {
    if (child.readOnly) continue;
    const keys = child.isChoice ? child.types.map((type) => choiceKey(child.name, type)) : [child.name];
    // A primitive given only by its extension (`_status`, e.g. a data-absent-reason) is present.
    const present = keys.some((key) => !isEmptyValue(values[key]) || !isEmptyValue(values[`_${key}`]));
    if (child.min > 0 && !present) {
      issues.push({
        severity: 'error',
        code: 'required',
        details: { text: `${label}: ${fieldLabel(child.name)} is required` },
        expression: [`${expression}.${child.name}`],
      });
    }
    if (!child.isChoice) {
      checkElement(schema, child, values[child.name], `${expression}.${child.name}`, `${label} › `, issues);
    }
  }
}
