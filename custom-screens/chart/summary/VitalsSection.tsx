import { useMemo, useState } from 'react';
import { Box, ButtonBase, Typography } from '@mui/material';
import type { Patient } from '@medplum/fhirtypes';
import { useFhirClient } from '../../../src/resources/useFhirClient';
import { readableDate } from '../../../data-provider/formatting';
import { vitalReadings } from './rules/vitalReadings';
import { planVitals, type VitalsDraft } from './rules/vitalsObservations';
import { Sparkline } from './Sparkline';
import { SummarySection } from './SummarySection';
import { useMayRecord } from './useMayRecord';
import { vitalItemId } from './rules/latestObservations';
import type { ObservationSummaryList } from './usePatientSummaryData';
import { FieldSaveError, useSummaryForm } from './useSummaryForm';
import { useSummarySaved } from './useSummarySave';
import { VitalFlag } from './VitalFlag';
import { VisuallyHidden } from './VisuallyHidden';
import { displayNumber, latestOfRow, latestValueText, recentReadings, VITAL_ROWS, type VitalRow } from './vitalRows';
import { VitalsModal } from './VitalsModal';
import { VitalTrendDialog } from './VitalTrendDialog';
import { normalizeErrorString } from '../../../data-provider/outcomes';

/** Vitals: each vital's latest value with a sparkline of its last readings; a row opens its trend. */
export function VitalsSection(props: { patient: Patient; observations: ObservationSummaryList }) {
  const client = useFhirClient();
  const saved = useSummarySaved(props.patient.id as string);
  const editable = useMayRecord('Observation');
  const readings = useMemo(() => vitalReadings(props.observations.items), [props.observations.items]);
  const [trend, setTrend] = useState<VitalRow | undefined>();
  const form = useSummaryForm<VitalsDraft>({
    validate: (draft) => {
      const plan = planVitals(draft, { reference: `Patient/${props.patient.id}` }, new Date().toISOString());
      return plan.ok ? { fields: {} } : { fields: plan.errors, formError: plan.formError };
    },
    paths: {},
    save: async (draft, _key, update) => {
      const plan = planVitals(draft, { reference: `Patient/${props.patient.id}` }, new Date().toISOString());
      if (!plan.ok) throw new FieldSaveError(plan.errors, plan.formError ? [plan.formError] : []);
      // Each vital is its own POST, sent in parallel (app-spec §7).
      const results = await Promise.allSettled(plan.planned.map((p) => client.createResource(p.observation)));
      const failed: Partial<Record<keyof VitalsDraft, string>> = {};
      const cleared: VitalsDraft = {};
      results.forEach((result, index) => {
        const fields = plan.planned[index]?.fields ?? [];
        if (result.status === 'fulfilled') for (const field of fields) cleared[field] = '';
        else for (const field of fields) failed[field] = normalizeErrorString(result.reason);
      });
      const savedCount = results.filter((r) => r.status === 'fulfilled').length;
      if (savedCount > 0) await saved('observations', 'Observation', `Vitals saved (${savedCount})`);
      if (Object.keys(failed).length > 0) {
        // What was saved leaves the draft, so saving again does not write it twice; the rest stays.
        update(cleared);
        throw new FieldSaveError(failed, [`${results.length - savedCount} of ${results.length} vitals were not saved`]);
      }
    },
  });
  return (
    <SummarySection
      editable={editable}
      title="Vitals"
      actionLabel="Record vitals"
      onAction={() => form.open('new', () => ({}))}
      loading={props.observations.loading}
      error={props.observations.error}
      isEmpty={false}
      emptyText=""
      modal={form.modal.draft ? <VitalsModal form={form} /> : null}
    >
      <Box component="ul" sx={{ m: 0, p: 0 }}>
        {VITAL_ROWS.map((row) => {
          const latest = latestOfRow(row, readings);
          const primary = row.series[0]!;
          const recent = recentReadings(readings, primary.key);
          // A vital the page of Observations did not hold is asked for on its own: '—' (none) only
          // once the server said so.
          const lookup = latest.date ? undefined : props.observations.lookups[vitalItemId(row.id)];
          return (
            <Box component="li" key={row.id} sx={{ listStyle: 'none' }}>
              <ButtonBase
                onClick={() => setTrend(row)}
                data-vital-row={row.id}
                sx={{
                  width: '100%',
                  display: 'grid',
                  gridTemplateColumns: '1fr auto 72px',
                  alignItems: 'center',
                  gap: 1,
                  py: 0.5,
                  px: 0.5,
                  textAlign: 'left',
                  borderRadius: 1,
                  '&:hover': { bgcolor: 'action.hover' },
                  '&.Mui-focusVisible': { outline: 2, outlineColor: 'primary.main', outlineStyle: 'solid' },
                }}
              >
                <Box component="span" sx={{ minWidth: 0 }}>
                  <Typography component="span" variant="body2" sx={{ display: 'block' }}>
                    {row.label}
                  </Typography>
                  {latest.date ? (
                    <Typography component="span" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                      {readableDate(latest.date)}
                    </Typography>
                  ) : null}
                </Box>
                <Box component="span" sx={{ textAlign: 'right' }}>
                  <Typography
                    component="span"
                    variant="body2"
                    sx={{ display: 'block', fontWeight: 600 }}
                    data-vital-value={row.id}
                  >
                    {lookup?.loading ? 'Loading…' : lookup?.error ? 'Could not load' : latestValueText(latest)}
                  </Typography>
                  {lookup?.error ? <VisuallyHidden>{lookup.error.message}</VisuallyHidden> : null}
                  {latest.parts.map(({ definition, reading }) =>
                    reading ? (
                      <VitalFlag
                        key={definition.key}
                        reading={reading}
                        definition={definition}
                        part={row.series.length > 1 ? definition.label : undefined}
                      />
                    ) : null,
                  )}
                </Box>
                <Sparkline
                  values={recent.map((r) => r.value)}
                  label={`${primary.label} trend: ${recent.map((r) => displayNumber(r.value)).join(', ')}`}
                />
                <VisuallyHidden>Show trend</VisuallyHidden>
              </ButtonBase>
            </Box>
          );
        })}
      </Box>
      {trend ? <VitalTrendDialog row={trend} readings={readings} onClose={() => setTrend(undefined)} /> : null}
    </SummarySection>
  );
}
