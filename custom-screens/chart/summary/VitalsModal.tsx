import { Box, InputAdornment, TextField, Typography } from '@mui/material';
import {
  DIASTOLIC,
  SINGLE_VITALS,
  SYSTOLIC,
  type VitalDefinition,
  type VitalKey,
} from '../../../config/clinical/vitals';
import type { VitalsDraft } from './rules/vitalsObservations';
import { SummaryDialog } from './SummaryDialog';
import type { SummaryForm } from './useSummaryForm';
import { displayUnit } from './vitalRows';

function VitalField(props: {
  definition: VitalDefinition;
  form: SummaryForm<VitalsDraft>;
  autoFocus?: boolean;
  label?: string;
}) {
  const { definition, form } = props;
  const key: VitalKey = definition.key;
  const error = form.fieldErrors[key];
  return (
    <TextField
      label={props.label ?? definition.label}
      autoFocus={props.autoFocus}
      value={form.modal.draft?.[key] ?? ''}
      onChange={(e) => form.change({ [key]: e.target.value })}
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

/** The vitals form: blank fields are skipped, a typed value must be a number. */
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
        <VitalField definition={SYSTOLIC} form={form} autoFocus label="Systolic BP" />
        <VitalField definition={DIASTOLIC} form={form} label="Diastolic BP" />
      </Box>
      <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1, rowGap: 2 }}>
        {SINGLE_VITALS.map((vital) => (
          <VitalField key={vital.key} definition={vital} form={form} />
        ))}
      </Box>
    </SummaryDialog>
  );
}
