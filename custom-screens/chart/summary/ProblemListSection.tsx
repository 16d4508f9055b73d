import { MenuItem, TextField } from '@mui/material';
import type { Condition, Patient } from '@medplum/fhirtypes';
import { CONDITION_CLINICAL_STATUSES } from '../../../config/clinical/problemList';
import { PROBLEM_CONCEPTS } from '../../../config/clinical/recordedConcepts';
import { formatCodeableConcept } from '../../../data-provider/formatting';
import { useFhirClient } from '../../../src/resources/useFhirClient';
import { buildCondition, problemDraftOf, validateProblem, type ProblemDraft } from './rules/problemRules';
import { currentFirst } from './rules/currentFirst';
import { localDay } from '../../../data-provider/rules';
import { datedBy } from './rules/onsetDates';
import { isCurrentCondition, isProblemListEntry } from './rules/problemListEntries';
import { readableDate } from '../../../data-provider/formatting';
import { ConceptField } from './ConceptField';
import { SummaryDialog } from './SummaryDialog';
import { SummaryItem, SummaryList } from './SummaryItem';
import { SummarySection } from './SummarySection';
import { useMayRecord } from './useMayRecord';
import type { SummaryList as Loaded } from './usePatientSummaryData';
import { useSummaryForm } from './useSummaryForm';
import { useSummarySaved } from './useSummarySave';

const PATHS: Record<string, keyof ProblemDraft> = {
  'Condition.code': 'problem',
  'Condition.clinicalStatus': 'clinicalStatus',
  'Condition.onsetDateTime': 'onset',
};

/** Problem List (Conditions of the patient) with the add/edit modal; a problem needs a Dx date. */
export function ProblemListSection(props: { patient: Patient; problems: Loaded<Condition> }) {
  const client = useFhirClient();
  const saved = useSummarySaved(props.patient.id as string);
  const editable = useMayRecord('Condition');
  const patientRef = { reference: `Patient/${props.patient.id}` };
  const problems = currentFirst(
    props.problems.items.filter(isProblemListEntry),
    isCurrentCondition,
    (condition) => datedBy(condition)?.date,
  );
  const byId = new Map(problems.map((c) => [c.id as string, c]));
  const form = useSummaryForm<ProblemDraft>({
    validate: validateProblem,
    paths: PATHS,
    save: async (draft, key) => {
      const existing = byId.get(key);
      const condition = buildCondition(draft, patientRef, existing);
      await (existing ? client.updateResource(condition) : client.createResource(condition));
      await saved('problems', 'Condition', existing ? 'Problem updated' : 'Problem added');
    },
  });
  const draft = form.modal.draft;
  const editing = form.modal.openKey !== undefined && form.modal.openKey !== 'new';
  return (
    <SummarySection
      editable={editable}
      title="Problem List"
      actionLabel="Add problem"
      onAction={() => form.open('new', () => problemDraftOf(undefined))}
      loading={props.problems.loading}
      error={props.problems.error}
      isEmpty={problems.length === 0}
      emptyText="No problems recorded"
      modal={
        draft ? (
          <SummaryDialog
            title={editing ? 'Edit problem' : 'Add problem'}
            open
            saving={form.saving}
            errors={form.generalErrors}
            onClose={form.modal.close}
            onCancel={form.modal.discard}
            onSave={form.submit}
          >
            <ConceptField
              label="Problem"
              required
              autoFocus
              source={PROBLEM_CONCEPTS}
              text={draft.problem}
              chosen={draft.problemConcept}
              onTextChange={(problem) => form.change({ problem })}
              onChoose={(chosen) => form.change({ problem: chosen.label, problemConcept: chosen })}
              error={form.fieldErrors.problem}
            />
            <TextField
              select
              label="Clinical status"
              value={draft.clinicalStatus}
              onChange={(e) => form.change({ clinicalStatus: e.target.value })}
              error={!!form.fieldErrors.clinicalStatus}
              helperText={form.fieldErrors.clinicalStatus}
            >
              {CONDITION_CLINICAL_STATUSES.map((status) => (
                <MenuItem key={status} value={status}>
                  {status}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label="Dx Date"
              type="date"
              required
              value={draft.onset}
              onChange={(e) => form.change({ onset: e.target.value })}
              // The date picker greys out future days; typed ones are refused by the rules on Save.
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: localDay() } }}
              error={!!form.fieldErrors.onset}
              helperText={form.fieldErrors.onset}
            />
          </SummaryDialog>
        ) : null
      }
    >
      <SummaryList>
        {problems.map((condition) => {
          const name = formatCodeableConcept(condition.code) || 'Unnamed problem';
          const dated = datedBy(condition);
          return (
            <SummaryItem
              editable={editable}
              key={condition.id}
              primary={name}
              secondary={dated && `${dated.kind === 'onset' ? 'Dx' : 'Recorded'} ${readableDate(dated.date)}`}
              status={condition.clinicalStatus?.coding?.[0]?.code}
              action="Edit problem"
              onOpen={() => form.open(condition.id as string, () => problemDraftOf(condition))}
            />
          );
        })}
      </SummaryList>
    </SummarySection>
  );
}
