import { CHART_TABS } from '../../config/clinical/chartTabs';

/** What a chart list of the type is called: its tab's label (Meds), else the type (Observation). */
export function chartListLabel(resourceType: string): string {
  return CHART_TABS.find((tab) => tab.resourceType === resourceType)?.label ?? resourceType;
}
