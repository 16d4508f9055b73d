import { MenuItem, TextField } from '@mui/material';
import type { AllergyIntolerance, Patient } from '@medplum/fhirtypes';
import { ALLERGY_CLINICAL_STATUSES } from '../../../config/clinical/allergies';
import { ALLERGEN_CONCEPTS } from '../../../config/clinical/recordedConcepts';
import { formatCodeableConcept } from '../../../data-provider/formatting';
import { useFhirClient } from '../../../src/resources/useFhirClient';
import { allergyDraftOf, buildAllergy, reactionText, validateAllergy, type AllergyDraft } from './rules/allergyRules';
import { localDay } from '../../../data-provider/rules';
import { datedBy } from './rules/onsetDates';
import { readableDate } from '../../../data-provider/formatting';
import { ConceptField } from './ConceptField';
import { SummaryDialog } from './SummaryDialog';
import { SummaryItem, SummaryList } from './SummaryItem';
import { SummarySection } from './SummarySection';
import { useMayRecord } from './useMayRecord';
import type { SummaryList as Loaded } from './usePatientSummaryData';
import { useSummaryForm } from './useSummaryForm';
import { useSummarySaved } from './useSummarySave';

const PATHS: Record<string, keyof AllergyDraft> = {
  'AllergyIntolerance.code': 'allergen',
  'AllergyIntolerance.clinicalStatus': 'clinicalStatus',
  'AllergyIntolerance.onsetDateTime': 'onset',
  'AllergyIntolerance.reaction': 'reaction',
  'AllergyIntolerance.reaction.manifestation': 'reaction',
};

/** Allergies (AllergyIntolerance by patient) with the add/edit modal. */
export function AllergiesSection(props: { patient: Patient; allergies: Loaded<AllergyIntolerance> }) {
  const client = useFhirClient();
  const saved = useSummarySaved(props.patient.id as string);
  const editable = useMayRecord('AllergyIntolerance');
  const patientRef = { reference: `Patient/${props.patient.id}` };
  const byId = new Map(props.allergies.items.map((a) => [a.id as string, a]));
  const form = useSummaryForm<AllergyDraft>({
    validate: validateAllergy,
    paths: PATHS,
    save: async (draft, key) => {
      const existing = byId.get(key);
      const allergy = buildAllergy(draft, patientRef, existing);
      await (existing ? client.updateResource(allergy) : client.createResource(allergy));
      await saved('allergies', 'AllergyIntolerance', existing ? 'Allergy updated' : 'Allergy added');
    },
  });
  const draft = form.modal.draft;
  const editing = form.modal.openKey !== undefined && form.modal.openKey !== 'new';
  return (
    <SummarySection
      editable={editable}
      title="Allergies"
      actionLabel="Add allergy"
      onAction={() => form.open('new', () => allergyDraftOf(undefined))}
      loading={props.allergies.loading}
      error={props.allergies.error}
      isEmpty={props.allergies.items.length === 0}
      // "No known allergies" is a clinical statement (NKA) that nobody made when nothing is recorded.
      emptyText="No allergies recorded"
      modal={
        draft ? (
          <SummaryDialog
            title={editing ? 'Edit allergy' : 'Add allergy'}
            open
            saving={form.saving}
            errors={form.generalErrors}
            onClose={form.modal.close}
            onCancel={form.modal.discard}
            onSave={form.submit}
          >
            <ConceptField
              label="Allergen"
              required
              autoFocus
              source={ALLERGEN_CONCEPTS}
              text={draft.allergen}
              chosen={draft.allergenConcept}
              onTextChange={(allergen) => form.change({ allergen })}
              onChoose={(chosen) => form.change({ allergen: chosen.label, allergenConcept: chosen })}
              error={form.fieldErrors.allergen}
            />
            <TextField
              select
              label="Clinical status"
              value={draft.clinicalStatus}
              onChange={(e) => form.change({ clinicalStatus: e.target.value })}
              error={!!form.fieldErrors.clinicalStatus}
              helperText={form.fieldErrors.clinicalStatus}
            >
              {ALLERGY_CLINICAL_STATUSES.map((status) => (
                <MenuItem key={status} value={status}>
                  {status}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label="Onset"
              type="date"
              value={draft.onset}
              onChange={(e) => form.change({ onset: e.target.value })}
              // The date picker greys out future days; typed ones are refused by the rules on Save.
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: localDay() } }}
              error={!!form.fieldErrors.onset}
              helperText={form.fieldErrors.onset}
            />
            <TextField
              label="Reaction"
              value={draft.reaction}
              onChange={(e) => form.change({ reaction: e.target.value })}
              error={!!form.fieldErrors.reaction}
              helperText={form.fieldErrors.reaction ?? 'What happens, e.g. hives, anaphylaxis'}
            />
          </SummaryDialog>
        ) : null
      }
    >
      <SummaryList>
        {props.allergies.items.map((allergy) => {
          const name = formatCodeableConcept(allergy.code) || 'Unnamed allergy';
          const dated = datedBy(allergy);
          const when = dated && `${dated.kind === 'onset' ? 'since' : 'recorded'} ${readableDate(dated.date)}`;
          return (
            <SummaryItem
              editable={editable}
              key={allergy.id}
              primary={name}
              secondary={[reactionText(allergy), when].filter(Boolean).join(' · ') || undefined}
              status={allergy.clinicalStatus?.coding?.[0]?.code}
              action="Edit allergy"
              onOpen={() => form.open(allergy.id as string, () => allergyDraftOf(allergy))}
            />
          );
        })}
      </SummaryList>
    </SummarySection>
  );
}
