import { Box } from '@mui/material';
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
}

/** The header's open-task line: none for a caller who may not search tasks, no count until they have loaded. */
function openTasksLine(tasks: SummaryList<Task> | undefined, href: string) {
  if (!tasks) return undefined;
  return { href, counts: tasks.loading || tasks.error ? undefined : openTaskCounts(tasks.items, SUMMARY_COUNT) };
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
  const notShown = sectionsNotShown(data);
  return (
    // The chart frame's <aside aria-label="Patient summary"> is the landmark; this is its content.
    <Box
      data-patient-summary
      sx={{ width: '100%', maxWidth: PATIENT_SUMMARY_WIDTH, bgcolor: 'background.paper', overflow: 'hidden' }}
    >
      <SummaryHeader
        patient={patient}
        provider={provider}
        appointments={countLink(data.appointments, props.appointmentsHref ?? '#')}
        visits={countLink(data.visits, props.visitsHref ?? '#')}
        openTasks={openTasksLine(data.openTasks, props.tasksHref ?? '#')}
      />
      {data.allergies && <AllergiesSection patient={patient} allergies={data.allergies} />}
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
      {notShown.length > 0 && (
        <Box sx={{ px: 2, py: 1.25, borderTop: 1, borderColor: 'divider' }}>
          <NotShownUnderPolicy parts={notShown} />
        </Box>
      )}
    </Box>
  );
}
