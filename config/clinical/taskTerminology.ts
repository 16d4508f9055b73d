import type { CodeableConcept, ValueSet } from '@medplum/fhirtypes';

/** Assign to a Role offers the practitioner role value set (app-spec §6); it ships with FHIR R4. */
export const PRACTITIONER_ROLE_VALUE_SET = 'http://hl7.org/fhir/ValueSet/practitioner-role';

/**
 * FHIR defines no value set for Task.businessStatus (its binding is example-only), so the product
 * ships one, seeded into every project with the bundled questionnaire; a project may edit it.
 */
export const TASK_BUSINESS_STATUS_SYSTEM = 'https://hearth-emr.org/fhir/CodeSystem/task-business-status';
export const TASK_BUSINESS_STATUS_VALUE_SET = 'https://hearth-emr.org/fhir/ValueSet/task-business-status';

export const TASK_BUSINESS_STATUS_CONCEPTS: readonly { code: string; display: string }[] = [
  { code: 'awaiting-review', display: 'Awaiting review' },
  { code: 'awaiting-patient', display: 'Awaiting patient response' },
  { code: 'awaiting-results', display: 'Awaiting results' },
  { code: 'scheduled', display: 'Scheduled' },
  { code: 'in-review', display: 'In review' },
  { code: 'escalated', display: 'Escalated' },
  { code: 'done', display: 'Done' },
];

export const taskBusinessStatusValueSet: ValueSet = {
  resourceType: 'ValueSet',
  url: TASK_BUSINESS_STATUS_VALUE_SET,
  name: 'TaskBusinessStatus',
  title: 'Task business status',
  status: 'active',
  description: 'Where a task stands in the clinic’s own workflow (Task.businessStatus), offered by the task page.',
  compose: {
    include: [{ system: TASK_BUSINESS_STATUS_SYSTEM, concept: TASK_BUSINESS_STATUS_CONCEPTS.map((c) => ({ ...c })) }],
  },
};

/**
 * The follow-up task a visit note creates (app-spec §4): "coded as a physician menopause-management
 * note". No standard code says exactly that, so the product's own code carries the meaning and LOINC
 * 11506-3 (Progress note) says what kind of document the task's focus is.
 */
export const MENOPAUSE_NOTE_TASK_CODE: CodeableConcept = {
  text: 'Physician menopause-management note',
  coding: [
    {
      system: 'https://hearth-emr.org/fhir/CodeSystem/task-code',
      code: 'physician-menopause-management-note',
      display: 'Physician menopause-management note',
    },
    { system: 'http://loinc.org', code: '11506-3', display: 'Progress note' },
  ],
};
