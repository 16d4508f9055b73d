import type { ChartTab } from '../../config/clinical/chartTabs';
import { allowsAll, type AccessNeeds, type ChartAccess } from './chartAccess';

/**
 * What the visit note (custom-screens/visit-note) reads and writes: the questionnaire it fills,
 * the caller's saved draft (searched, then autosaved), the patient's open tasks it lists first,
 * and on submit the completed response with its follow-up Task in one transaction — without any
 * one of them the note cannot be written, so it is not offered.
 */
export const VISIT_NOTE_NEEDS: AccessNeeds = {
  search: ['Patient', 'Questionnaire', 'QuestionnaireResponse', 'Task'],
  write: ['QuestionnaireResponse', 'Task'],
};

/** The tabs that are screens rather than one type's list, by path. */
const SCREEN_NEEDS: Readonly<Record<string, AccessNeeds>> = {
  // The patient's own record in the editor: nothing to do there without writing it.
  edit: { search: ['Patient'], update: ['Patient'] },
  encounter: VISIT_NOTE_NEEDS,
  // The chat with the patient: its messages are what it shows.
  communication: { search: ['Communication'] },
};

/** A list tab needs to search its type; the timeline (the chart's default) shows whatever may be read. */
export function chartTabNeeds(tab: ChartTab): AccessNeeds {
  if (tab.resourceType) return { search: [tab.resourceType] };
  return SCREEN_NEEDS[tab.path] ?? { search: [] };
}

export function mayOpenChartTab(tab: ChartTab, access: ChartAccess): boolean {
  return allowsAll(access, chartTabNeeds(tab));
}
