import { Box, InputAdornment, TextField, Typography } from '@mui/material';
import {
  DIASTOLIC,
  SINGLE_VITALS,
  SYSTOLIC,
  type VitalDefinition,
  type VitalKey,
} from '../../../config/clinical/vitals';
import { DIASTOLIC_NOT_BELOW_SYSTOLIC_MESSAGE } from './rules/vitalLimits';
import type { VitalsDraft } from './rules/vitalsObservations';
import { SummaryDialog } from './SummaryDialog';
import type { SummaryForm } from './useSummaryForm';
import { displayUnit } from './vitalRows';

function VitalField(props: {
  definition: VitalDefinition;
  form: SummaryForm<VitalsDraft>;
  autoFocus?: boolean;
  label?: string;
  /** The other part of a pair checked together (blood pressure), whose message this field's edit answers too. */
  pairedWith?: VitalKey;
}) {
  const { definition, form, pairedWith } = props;
  const key: VitalKey = definition.key;
  const error = form.fieldErrors[key];
  // `change` clears the messages of the fields it is given: passing the pair's other part unchanged
  // also clears "Diastolic must be lower than systolic" when the systolic is the one corrected (and
  // only that message: the other part's own range message stays until that part is edited).
  const answersPair = pairedWith !== undefined && form.fieldErrors[pairedWith] === DIASTOLIC_NOT_BELOW_SYSTOLIC_MESSAGE;
  const onChange = (text: string) =>
    form.change(answersPair ? { [key]: text, [pairedWith]: form.modal.draft?.[pairedWith] ?? '' } : { [key]: text });
  return (
    <TextField
      label={props.label ?? definition.label}
      autoFocus={props.autoFocus}
      value={form.modal.draft?.[key] ?? ''}
      onChange={(e) => onChange(e.target.value)}
      error={!!error}
      helperText={error}
      size="small"
      slotProps={{
        htmlInput: { inputMode: 'decimal', 'data-vital': key },
        input: { endAdornment: <InputAdornment position="end">{displayUnit(definition.unit)}</InputAdornment> },
      }}
    />
  );
}

/**
 * The vitals form: blank fields are skipped; a typed value must be a number a body can measure
 * (rules/vitalLimits), else Save is refused with the message under its field and the draft kept.
 */
export function VitalsModal({ form }: { form: SummaryForm<VitalsDraft> }) {
  return (
    <SummaryDialog
      title="Record vitals"
      maxWidth="sm"
      open
      saving={form.saving}
      errors={form.generalErrors}
      onClose={form.modal.close}
      onCancel={form.modal.discard}
      onSave={form.submit}
    >
      <Typography variant="body2" color="text.secondary">
        Fill in what was measured; blank fields are skipped.
      </Typography>
      <Box role="group" aria-label="Blood pressure" sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1 }}>
        <VitalField definition={SYSTOLIC} form={form} autoFocus label="Systolic BP" pairedWith={DIASTOLIC.key} />
        <VitalField definition={DIASTOLIC} form={form} label="Diastolic BP" pairedWith={SYSTOLIC.key} />
      </Box>
      <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1, rowGap: 2 }}>
        {SINGLE_VITALS.map((vital) => (
          <VitalField key={vital.key} definition={vital} form={form} />
        ))}
      </Box>
    </SummaryDialog>
  );
}
