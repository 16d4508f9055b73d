import type { Bundle, Observation } from '@medplum/fhirtypes';
import { isOperationOutcome, normalizeErrorString } from '../../../../data-provider/outcomes';
import { SEXUAL_ORIENTATION_CODE } from '../../../../config/clinical/sexualOrientation';
import { SMOKING_STATUS_CODE } from '../../../../config/clinical/smokingStatus';
import { BLOOD_PRESSURE, LOINC_SYSTEM } from '../../../../config/clinical/vitals';
import { VITAL_ROWS } from '../vitalRows';
import { latestWithCode, vitalReadings } from './vitalReadings';

/**
 * The summary shows the latest Observation of a few codes: smoking status, sexual orientation and
 * each vital sign. It reads them from one page of the patient's Observations, the 100 most
 * recently written (app-spec §7). A patient with more than 100 (Wendy Littel has 170 imported)
 * loses the older kinds off that page as soon as new vitals are written: her 2020 smoking status
 * fell off after two vitals entries, and the summary said "Not recorded". So an item the page does
 * not hold, when the page may not be the whole record, is asked for on its own: the newest
 * Observation of its codes.
 */
export interface SummaryObservationItem {
  /** `social:72166-2`, `vital:heartRate`. */
  id: string;
  /** What the item is called in a sentence: 'smoking status', 'heart rate'. */
  label: string;
  /** LOINC codes asked for (any of them), in the item's own query. */
  codes: readonly string[];
  /** Whether the page holds what the section shows for the item. */
  inPage(page: readonly Observation[]): boolean;
}

export const socialItemId = (questionCode: string) => `social:${questionCode}`;
export const vitalItemId = (rowId: string) => `vital:${rowId}`;

function socialItem(question: { code: string; display: string }, label: string): SummaryObservationItem {
  return {
    id: socialItemId(question.code),
    label,
    codes: [question.code],
    inPage: (page) => latestWithCode(page, [question.code]) !== undefined,
  };
}

/**
 * Every item the summary shows, in its order. A vital row is in the page when the page has a
 * reading of it (a blood-pressure panel counts by its parts). Blood pressure's own query asks for
 * the panel codes: stand-alone systolic and diastolic Observations (rare; none in the demo or in
 * Synthea's records) are read from the page only.
 */
export const SUMMARY_OBSERVATION_ITEMS: readonly SummaryObservationItem[] = [
  socialItem(SEXUAL_ORIENTATION_CODE, 'sexual orientation'),
  socialItem(SMOKING_STATUS_CODE, 'smoking status'),
  ...VITAL_ROWS.map((row): SummaryObservationItem => ({
    id: vitalItemId(row.id),
    label: row.label.toLowerCase(),
    codes: row.id === 'bloodPressure' ? BLOOD_PRESSURE.readCodes : row.series.flatMap((part) => part.readCodes),
    inPage: (page) => {
      const readings = vitalReadings(page);
      return row.series.some((part) => (readings.get(part.key)?.length ?? 0) > 0);
    },
  })),
];

/**
 * Whether a page of `count` asked for may leave Observations out: it came full. A page with fewer
 * is the patient's whole record, and what it does not hold the patient does not have.
 */
export function pageMayBePartial(page: readonly Observation[], count: number): boolean {
  return page.length >= count;
}

/** The items to ask for on their own: none when the page is the whole record. */
export function missingObservationItems(page: readonly Observation[], count: number): SummaryObservationItem[] {
  if (!pageMayBePartial(page, count)) return [];
  return SUMMARY_OBSERVATION_ITEMS.filter((item) => !item.inPage(page));
}

/**
 * The search for an item's newest Observation: `Observation?subject=Patient/x&code=<system|code>&
 * _sort=-date&_count=1`, leaving out records entered in error (never true, and the section does not
 * show them: the newest of those would hide an older true one).
 */
export function latestObservationQuery(
  patientId: string,
  item: SummaryObservationItem,
): Record<string, string | number> {
  return {
    subject: `Patient/${patientId}`,
    code: item.codes.map((code) => `${LOINC_SYSTEM}|${code}`).join(','),
    'status:not': 'entered-in-error',
    _sort: '-date',
    _count: 1,
  };
}

/** A search as a relative URL: `Observation?subject=Patient%2Fx&code=…`. */
function searchUrl(query: Record<string, string | number>): string {
  return `Observation?${new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)])).toString()}`;
}

/**
 * The items' searches in one `batch` Bundle: one round trip however many are missing, and a batch
 * like the chart's first request (the client would send a lone search as a GET of its own).
 */
export function latestObservationsBatch(patientId: string, items: readonly SummaryObservationItem[]): Bundle {
  return {
    resourceType: 'Bundle',
    type: 'batch',
    entry: items.map((item) => ({
      request: { method: 'GET', url: searchUrl(latestObservationQuery(patientId, item)) },
    })),
  };
}

export interface LatestFound {
  /** What the item's search found (none: the patient has no such Observation). */
  found?: Observation[];
  /** Why the item's search failed: whether the patient has one is not known. */
  failed?: string;
}

/** Each item's answer in the batch response, in the items' order; an entry missing or refused fails its item alone. */
export function latestObservationsFrom(response: Bundle, items: readonly SummaryObservationItem[]): LatestFound[] {
  return items.map((_item, index) => {
    const entry = response.entry?.[index];
    if (!entry) return { failed: 'The server did not answer this search' };
    const status = Number.parseInt(entry.response?.status ?? '', 10);
    if (status >= 200 && status < 300 && entry.resource?.resourceType === 'Bundle') {
      const matches = (entry.resource.entry ?? []).filter((e) => (e.search?.mode ?? 'match') === 'match');
      return {
        found: matches
          .map((e) => e.resource)
          .filter((resource): resource is Observation => resource?.resourceType === 'Observation'),
      };
    }
    const outcome = entry.response?.outcome ?? (isOperationOutcome(entry.resource) ? entry.resource : undefined);
    return { failed: outcome ? normalizeErrorString(outcome) : `HTTP ${Number.isNaN(status) ? 500 : status}` };
  });
}

/** The message of a section whose own query failed: it does not know, and says so. */
export function couldNotLoadMessage(item: Pick<SummaryObservationItem, 'label'>, reason: string): string {
  return `Could not load the latest ${item.label}${reason ? `: ${reason}` : ''}`;
}
