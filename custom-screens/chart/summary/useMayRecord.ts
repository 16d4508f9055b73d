import { useChartViewer } from '../chartViewer';
import { useChartAccess } from '../useChartAccess';

/**
 * Whether the summary offers to add and change records of the type: the care team's work (a
 * patient reads their summary), and only with the policy's leave to write the type, so that no
 * save is offered that the server would refuse.
 */
export function useMayRecord(resourceType: string): boolean {
  const { patientView } = useChartViewer();
  const access = useChartAccess();
  return !patientView && access.canWrite(resourceType);
}
