import { FormControl, FormControlLabel, FormHelperText, FormLabel, Radio, RadioGroup, Typography } from '@mui/material';
import type { Coding, Patient } from '@medplum/fhirtypes';
import type { CodedChoice } from '../../../config/clinical/smokingStatus';
import { useFhirClient } from '../../../src/resources/useFhirClient';
import { readableDate } from '../../../data-provider/formatting';
import { answerCode, answerLabel, buildSocialHistoryObservation, validateChoice } from './rules/socialHistoryRules';
import { socialItemId } from './rules/latestObservations';
import { latestWithCode } from './rules/vitalReadings';
import { SummaryDialog } from './SummaryDialog';
import { SummarySection } from './SummarySection';
import { useMayRecord } from './useMayRecord';
import type { ObservationSummaryList } from './usePatientSummaryData';
import { useSummaryForm } from './useSummaryForm';
import { useSummarySaved } from './useSummarySave';

export interface SocialHistorySectionProps {
  patient: Patient;
  observations: ObservationSummaryList;
  title: string;
  question: Coding;
  choices: readonly CodedChoice[];
  /** Toast after a save, e.g. 'Smoking status saved'. */
  savedMessage: string;
}

interface ChoiceDraft {
  answer: string;
}

const PATHS: Record<string, 'answer'> = {
  'Observation.valueCodeableConcept': 'answer',
  'Observation.value': 'answer',
};

/**
 * A one-answer social-history section (Smoking Status, Sexual Orientation): shows the latest
 * answer; the modal records a new final Observation, so earlier answers stay in the history.
 */
export function SocialHistorySection(props: SocialHistorySectionProps) {
  const client = useFhirClient();
  const saved = useSummarySaved(props.patient.id as string);
  const editable = useMayRecord('Observation');
  const latest = latestWithCode(props.observations.items, [props.question.code as string]);
  // Not in the page of Observations: asked for on its own. Until it answers, nothing is known; a
  // failed answer says so — "Not recorded" only when the server said there is none.
  const lookup = props.observations.lookups[socialItemId(props.question.code as string)];
  const form = useSummaryForm<ChoiceDraft>({
    validate: (draft) => ({ answer: validateChoice(props.choices, draft.answer) }),
    paths: PATHS,
    save: async (draft) => {
      await client.createResource(
        buildSocialHistoryObservation(
          props.question,
          props.choices,
          draft.answer,
          { reference: `Patient/${props.patient.id}` },
          new Date().toISOString(),
        ),
      );
      await saved('observations', 'Observation', props.savedMessage);
    },
  });
  const draft = form.modal.draft;
  const labelId = `${props.title.replace(/\W+/g, '-').toLowerCase()}-choices`;
  const when = readableDate(latest?.effectiveDateTime ?? latest?.issued);
  return (
    <SummarySection
      editable={editable}
      title={props.title}
      actionLabel={`Edit ${props.title.toLowerCase()}`}
      actionIcon="edit"
      onAction={() => form.open('new', () => ({ answer: answerCode(latest) }))}
      loading={props.observations.loading || !!lookup?.loading}
      error={props.observations.error ?? lookup?.error}
      isEmpty={!latest}
      emptyText="Not recorded"
      modal={
        draft ? (
          <SummaryDialog
            title={props.title}
            open
            saving={form.saving}
            errors={form.generalErrors}
            onClose={form.modal.close}
            onCancel={form.modal.discard}
            onSave={form.submit}
          >
            <FormControl error={!!form.fieldErrors.answer} required>
              <FormLabel id={labelId}>{props.title}</FormLabel>
              <RadioGroup
                aria-labelledby={labelId}
                value={draft.answer}
                onChange={(e) => form.change({ answer: e.target.value })}
              >
                {props.choices.map((choice) => (
                  <FormControlLabel key={choice.code} value={choice.code} control={<Radio />} label={choice.display} />
                ))}
              </RadioGroup>
              {form.fieldErrors.answer ? <FormHelperText>{form.fieldErrors.answer}</FormHelperText> : null}
            </FormControl>
          </SummaryDialog>
        ) : null
      }
    >
      {latest ? (
        <Typography variant="body2">
          {answerLabel(props.choices, latest) || 'No answer'}
          {when ? (
            <Typography component="span" variant="caption" color="text.secondary">
              {` · ${when}`}
            </Typography>
          ) : null}
        </Typography>
      ) : null}
    </SummarySection>
  );
}
