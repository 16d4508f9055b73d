import { useId, useState, type ReactNode } from 'react';
import { Box, Button, Collapse, Typography } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import type { Patient, Task } from '@medplum/fhirtypes';
import { SEXUAL_ORIENTATION_CHOICES, SEXUAL_ORIENTATION_CODE } from '../../../config/clinical/sexualOrientation';
import { SMOKING_STATUS_CHOICES, SMOKING_STATUS_CODE } from '../../../config/clinical/smokingStatus';
import { NotShownUnderPolicy } from '../NotShownUnderPolicy';
import { useRecountOnWrite } from '../useRecountOnWrite';
import { AllergiesSection } from './AllergiesSection';
import { MedicationsSection } from './MedicationsSection';
import { ProblemListSection } from './ProblemListSection';
import { SocialHistorySection } from './SocialHistorySection';
import { openTaskCounts } from './rules/openTasks';
import { sectionsNotShown } from './rules/sectionsNotShown';
import { SUMMARY_COUNT, summaryQueryKey } from './summaryQueries';
import { SummaryHeader, type CountLink } from './SummaryHeader';
import { usePatientSummaryData, type SummaryList } from './usePatientSummaryData';
import { useProviderLine } from './useProviderLine';
import { useSeesRequiredActions } from '../useFormlessTasksWords';
import { VitalsSection } from './VitalsSection';

/** Width of the chart's summary sidebar (app-spec §2.7, §9). */
export const PATIENT_SUMMARY_WIDTH = 350;

export interface PatientSummaryProps {
  patient: Patient;
  /** Target of the upcoming-appointments link; '#' when not given (app-spec §2.7). */
  appointmentsHref?: string;
  /** Target of the documented-visits link; '#' when not given. */
  visitsHref?: string;
  /** Target of the open-tasks link (the chart's Tasks tab); '#' when not given. */
  tasksHref?: string;
  /**
   * Below 900 px the summary sits above the tabs across the whole width: a one-band header and the
   * allergies stay in view; the other sections wait behind "Show summary" (side by side once
   * shown), so that the tabs start within the first screen.
   */
  compact?: boolean;
}

/** The header's open-task line: none for a caller who may not search tasks, no count until they have loaded. */
function openTasksLine(tasks: SummaryList<Task> | undefined, href: string, seesRequiredActions: boolean) {
  if (!tasks) return undefined;
  const counts = tasks.loading || tasks.error ? undefined : openTaskCounts(tasks.items, SUMMARY_COUNT);
  return { href, counts, seesRequiredActions };
}

/** A header count of a list the caller may search; none when they may not. */
function countLink(list: SummaryList<unknown> | undefined, href: string): CountLink | undefined {
  return list && { href, count: list.loading ? undefined : list.items.length };
}

/**
 * The patient summary sidebar (app-spec §2.7): who this is (and the open tasks), then Allergies,
 * Problem List, Medications, Sexual Orientation, Smoking Status and Vitals, each with its add/edit
 * modal. A section whose records the caller's access policy does not let them read is left out,
 * and one quiet line names what is.
 */
export function PatientSummary(props: PatientSummaryProps) {
  const { patient } = props;
  const data = usePatientSummaryData(patient.id as string);
  // The sidebar stays mounted while the tabs change: a task completed or added in the Tasks tab (or
  // anywhere through this client) counts again in the header at once.
  useRecountOnWrite('Task', [summaryQueryKey(patient.id as string, 'openTasks')]);
  const provider = useProviderLine(patient, data.generalPractitioner);
  const seesRequiredActions = useSeesRequiredActions();
  const notShown = sectionsNotShown(data);
  const [shown, setShown] = useState(false);
  const foldedId = useId();
  const compact = props.compact ?? false;
  const allergies = data.allergies && <AllergiesSection patient={patient} allergies={data.allergies} />;
  // What waits behind "Show summary" in the compact layout, as the button's caption names it.
  const folded = [
    data.problems && 'Problem List',
    data.medications && 'Medications',
    ...(data.observations ? ['Sexual Orientation', 'Smoking Status', 'Vitals'] : []),
  ].filter(Boolean);
  const rest: ReactNode = (
    <>
      {data.problems && <ProblemListSection patient={patient} problems={data.problems} />}
      {data.medications && <MedicationsSection patient={patient} medications={data.medications} />}
      {data.observations && (
        <>
          <SocialHistorySection
            patient={patient}
            observations={data.observations}
            title="Sexual Orientation"
            question={SEXUAL_ORIENTATION_CODE}
            choices={SEXUAL_ORIENTATION_CHOICES}
            savedMessage="Sexual orientation saved"
          />
          <SocialHistorySection
            patient={patient}
            observations={data.observations}
            title="Smoking Status"
            question={SMOKING_STATUS_CODE}
            choices={SMOKING_STATUS_CHOICES}
            savedMessage="Smoking status saved"
          />
          <VitalsSection patient={patient} observations={data.observations} />
        </>
      )}
    </>
  );
  return (
    // The chart frame's <aside aria-label="Patient summary"> is the landmark; this is its content.
    <Box
      data-patient-summary
      data-compact={compact || undefined}
      sx={{
        width: '100%',
        maxWidth: compact ? 'none' : PATIENT_SUMMARY_WIDTH,
        bgcolor: 'background.paper',
        overflow: 'hidden',
      }}
    >
      <SummaryHeader
        patient={patient}
        provider={provider}
        appointments={countLink(data.appointments, props.appointmentsHref ?? '#')}
        visits={countLink(data.visits, props.visitsHref ?? '#')}
        openTasks={openTasksLine(data.openTasks, props.tasksHref ?? '#', seesRequiredActions)}
        compact={compact}
      />
      {compact ? (
        <>
          {/* Allergies stay in view whatever is folded: nobody orders past them. */}
          {allergies}
          {folded.length > 0 && (
            <Box
              sx={{
                px: 2,
                py: 0.5,
                borderTop: 1,
                borderColor: 'divider',
                display: 'flex',
                alignItems: 'center',
                flexWrap: 'wrap',
                columnGap: 1,
              }}
            >
              <Button
                size="small"
                onClick={() => setShown((now) => !now)}
                aria-expanded={shown}
                aria-controls={foldedId}
                startIcon={shown ? <ExpandLessIcon /> : <ExpandMoreIcon />}
                sx={{ textTransform: 'none' }}
              >
                {shown ? 'Hide summary' : 'Show summary'}
              </Button>
              {!shown && (
                <Typography variant="caption" color="text.secondary">
                  {folded.join(', ')}
                </Typography>
              )}
            </Box>
          )}
          {/* Kept mounted while folded: a modal's unsaved draft and the sections' data stay. */}
          <Collapse in={shown} id={foldedId}>
            <Box
              sx={{
                display: 'grid',
                gridTemplateColumns: 'repeat(auto-fit, minmax(300px, 1fr))',
                alignItems: 'start',
                columnGap: 0,
              }}
            >
              {rest}
            </Box>
          </Collapse>
        </>
      ) : (
        <>
          {allergies}
          {rest}
        </>
      )}
      {notShown.length > 0 && (
        <Box sx={{ px: 2, py: 1.25, borderTop: 1, borderColor: 'divider' }}>
          <NotShownUnderPolicy parts={notShown} />
        </Box>
      )}
    </Box>
  );
}
