import { chartListSort } from '../../config/clinical/chartListSort';
import { CHART_TAB_PAGE_SIZE } from '../../config/clinical/chartTabs';
import { PATIENT_SEARCH_PARAMETER } from '../../config/clinical/patientReferenceFields';

/** The search of a chart tab (app-spec §2.3): the patient's resources of one type, newest first. */
export function chartTabQuery(
  resourceType: string,
  patientId: string,
  filters: Record<string, string> | undefined,
  offset: number,
  includes: readonly string[] = [],
): Record<string, string | readonly string[]> {
  return {
    [PATIENT_SEARCH_PARAMETER]: `Patient/${patientId}`,
    ...filters,
    _sort: chartListSort(resourceType),
    _count: String(CHART_TAB_PAGE_SIZE),
    _offset: String(offset),
    _total: 'accurate',
    ...(includes.length ? { _include: includes } : {}),
  };
}
