import { chartTabsFor, type ChartTab } from '../../config/clinical/chartTabs';
import { mayOpenChartTab } from './chartTabAccess';
import { useChartAccess } from './useChartAccess';

/**
 * The tabs this viewer gets (app-spec §2.2): those of their role (chartTabsFor: DoseSpot with
 * e-prescribing, no care-team tabs in a patient's own view), less those their access policy
 * would answer with a 403.
 */
export function useChartTabs(viewer: { ePrescribing: boolean; patientView: boolean }): ChartTab[] {
  const access = useChartAccess();
  return chartTabsFor(viewer).filter((tab) => mayOpenChartTab(tab, access));
}
