import { isDeceased, type VitalStatus } from '../../../data-provider/rules';

/**
 * Whether the chart shows the deceased notice across its top: for a patient recorded dead, to the
 * care team. A patient reading their own record is not asked to close anything. The tabs that would
 * otherwise say the death again (the chat's banner) ask this, so that the chart says it once.
 */
export function deceasedNoticeShown(patient: VitalStatus | undefined, patientView: boolean): boolean {
  return patient !== undefined && !patientView && isDeceased(patient);
}
