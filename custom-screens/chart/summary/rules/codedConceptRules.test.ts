import { describe, expect, it } from 'vitest';
import type { CodeableConcept, Task } from '@medplum/fhirtypes';
import { codeSystemName } from './codeSystemName';
import { codingNote } from './codingNote';
import { chosenSuggestion, conceptSuggestions } from './conceptSuggestions';
import { chosenConceptOf, conceptToSave } from './conceptText';
import { mayCountOpenTasks, openTaskCounts } from './openTasks';

const SNOMED = 'http://snomed.info/sct';
const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';

describe('concept suggestions', () => {
  const recorded: (CodeableConcept | undefined)[] = [
    { coding: [{ system: SNOMED, code: '44054006', display: 'Diabetes mellitus type 2' }] },
    { coding: [{ system: SNOMED, code: '44054006', display: 'Diabetes mellitus type 2' }], text: 'Type 2 diabetes' },
    { coding: [{ system: SNOMED, code: '73211009', display: 'Diabetes mellitus' }] },
    // Matched by its text, although its display says otherwise.
    { coding: [{ system: SNOMED, code: '714628002', display: 'Prediabetes' }], text: 'Diabetic risk' },
    // No system, or text only: nothing to code with.
    { coding: [{ code: 'DM' }], text: 'Diabetes (local)' },
    { text: 'Diabetes, diet controlled' },
    undefined,
    { coding: [{ system: SNOMED, code: '195967001', display: 'Asthma' }] },
  ];

  it('keeps each system and code once, counts its uses, most used first, then by name', () => {
    expect(conceptSuggestions(recorded, 'DIAB')).toEqual([
      {
        coding: { system: SNOMED, code: '44054006', display: 'Diabetes mellitus type 2' },
        label: 'Diabetes mellitus type 2',
        uses: 2,
      },
      {
        coding: { system: SNOMED, code: '73211009', display: 'Diabetes mellitus' },
        label: 'Diabetes mellitus',
        uses: 1,
      },
      { coding: { system: SNOMED, code: '714628002', display: 'Prediabetes' }, label: 'Prediabetes', uses: 1 },
    ]);
  });

  it('matches names from their start (as the server’s :text does), needs a text, and stops at the limit', () => {
    expect(conceptSuggestions(recorded, 'betes')).toEqual([]);
    expect(conceptSuggestions(recorded, '  ')).toEqual([]);
    expect(conceptSuggestions(recorded, 'diab', 1)).toHaveLength(1);
  });

  it('names a coding without display by the recorded text, and saves its coding without inventing a display', () => {
    const [suggestion] = conceptSuggestions(
      [{ coding: [{ system: RXNORM, code: '860975' }], text: 'Metformin 500' }],
      'met',
    );
    expect(suggestion).toEqual({ coding: { system: RXNORM, code: '860975' }, label: 'Metformin 500', uses: 1 });
    expect(chosenSuggestion(suggestion!)).toEqual({
      concept: { coding: [{ system: RXNORM, code: '860975' }], text: 'Metformin 500' },
      label: 'Metformin 500',
    });
  });
});

describe('the concept saved for a name', () => {
  const chosen = chosenSuggestion({
    coding: { system: SNOMED, code: '38341003', display: 'Hypertension' },
    label: 'Hypertension',
    uses: 3,
  });

  it('is the chosen coding with its text while the name is the chosen one, else text only', () => {
    expect(conceptToSave(' Hypertension ', chosen)).toEqual({
      coding: [{ system: SNOMED, code: '38341003', display: 'Hypertension' }],
      text: 'Hypertension',
    });
    expect(conceptToSave('Hypertension, severe', chosen)).toEqual({ text: 'Hypertension, severe' });
    expect(conceptToSave('Gout', undefined)).toEqual({ text: 'Gout' });
  });

  it('keeps an edited entry’s whole concept (every coding) while its shown name is unchanged', () => {
    const existing: CodeableConcept = {
      coding: [
        { system: SNOMED, code: '38341003', display: 'Hypertension' },
        { system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'I10' },
      ],
      text: 'High blood pressure',
    };
    const own = chosenConceptOf(existing);
    expect(own?.label).toBe('High blood pressure');
    expect(conceptToSave('High blood pressure', own)).toBe(existing);
    expect(chosenConceptOf(undefined)).toBeUndefined();
  });

  it('is described under the field: which codes are saved, or that a changed name drops them', () => {
    expect(codingNote('Hypertension', chosen)).toBe('Coded: SNOMED CT 38341003');
    expect(codingNote('Hypertension!', chosen)).toBe('Name changed: saved as text only, without SNOMED CT 38341003');
    expect(codingNote('Gout', undefined)).toBeUndefined();
    expect(codingNote('Gout', chosenConceptOf({ text: 'Gout' }))).toBeUndefined();
  });

  it('names SNOMED CT and RxNorm, and any other system by its URL', () => {
    expect(codeSystemName(SNOMED)).toBe('SNOMED CT');
    expect(codeSystemName(RXNORM)).toBe('RxNorm');
    expect(codeSystemName('http://hl7.org/fhir/sid/icd-10-cm')).toBe('http://hl7.org/fhir/sid/icd-10-cm');
  });
});

describe('open tasks in the header', () => {
  const today = new Date(2026, 10, 24);
  const task = (status: Task['status'], due?: string): Task => ({
    resourceType: 'Task',
    status,
    intent: 'order',
    ...(due ? { restriction: { period: { end: due } } } : {}),
  });

  it('counts open tasks and those due before today; closed ones count for neither', () => {
    const tasks = [
      task('ready', '2026-11-23'),
      task('in-progress', '2026-11-24'),
      task('on-hold'),
      task('draft', '2026-11-01T09:00:00Z'),
      task('completed', '2026-11-01'),
      task('cancelled', '2026-11-01'),
      task('rejected'),
      task('failed'),
      task('entered-in-error', '2026-11-01'),
    ];
    expect(openTaskCounts(tasks, 100, today)).toEqual({ open: 4, overdue: 2, capped: false, withoutForm: 4 });
    expect(openTaskCounts(tasks.slice(0, 2), 2, today)).toEqual({
      open: 2,
      overdue: 1,
      capped: true,
      withoutForm: 2,
    });
  });

  it('is asked for only by callers whose policy lets them search tasks, and not in a patient’s own view', () => {
    const staff = { policy: undefined, superAdmin: false, profileType: 'Practitioner' };
    expect(mayCountOpenTasks(staff)).toBe(true);
    const frontDesk = { resourceType: 'AccessPolicy' as const, resource: [{ resourceType: 'Patient' }] };
    expect(mayCountOpenTasks({ ...staff, policy: frontDesk })).toBe(false);
    expect(mayCountOpenTasks({ ...staff, policy: frontDesk, superAdmin: true })).toBe(true);
    expect(mayCountOpenTasks({ ...staff, profileType: 'Patient' })).toBe(false);
  });
});
