import type { Observation } from '@medplum/fhirtypes';
import { BLOOD_PRESSURE, DIASTOLIC, SINGLE_VITALS, SYSTOLIC } from '../../config/clinical/vitals';
import { formatCodeableConcept, formatObservationValue } from '../../data-provider/formatting';
import { resultFlag, type ResultFlag } from '../../src/resources/resultFlag';
import { withReadableMeasurements } from './readableMeasurement';
import { NO_REFERENCE_NAMES, referencedName, type ReferenceNames } from './referenceNames';
import { rangeFlag, rangeFor } from './summary/rules/rangeFlag';
import { vitalReadings } from './summary/rules/vitalReadings';
import { latestOfRow, latestValueText, VITAL_ROWS, type VitalRow } from './summary/vitalRows';

/**
 * What an Observation row's Value cell shows: the value as the clinician reads it, and how it
 * stands out (critical, high or low) in a word beside it, so an abnormal value is seen without
 * opening the record.
 */
export interface ObservationValueCell {
  kind: 'value';
  text: string;
  flag?: ResultFlag;
  /**
   * The flag in words ('Critical', 'High', 'Systolic high'), or the lab's own interpretation when it
   * is neither normal nor one of those ('Positive', 'Resistant').
   */
  word?: string;
}

const FLAG_WORDS: Record<ResultFlag, string> = { critical: 'Critical', high: 'High', low: 'Low' };
/** HL7 v3 "Normal": said by the absence of a flag, not by a word on every row. */
const NORMAL_INTERPRETATIONS: readonly string[] = ['N'];
const BLOOD_PRESSURE_ROW = VITAL_ROWS[0] as VitalRow;
const VITALS = [SYSTOLIC, DIASTOLIC, ...SINGLE_VITALS];
const BLOOD_PRESSURE_CODES: readonly string[] = BLOOD_PRESSURE.readCodes;

/**
 * The Value cell of an Observation. A vital sign reads as the summary's Vitals section reads it
 * ('128/82 mmHg' from a blood pressure's components, '37.2 °C') and is flagged as it flags it (the
 * interpretation, else the reference range); any other value through the console's own formatter
 * (a quantity with its unit — at most four significant digits, `readableMeasurement.ts` —, a coded
 * value by its display, a string). A panel (hasMember) says what it holds; its row opens it.
 */
export function observationValueCell(
  observation: Observation,
  names: ReferenceNames = NO_REFERENCE_NAMES,
): ObservationValueCell {
  const vital = vitalValue(observation);
  const text =
    vital?.text || formatObservationValue(withReadableMeasurements(observation)) || panelText(observation, names);
  const flag = resultFlag(observation);
  if (flag) return { kind: 'value', text, flag, word: FLAG_WORDS[flag] };
  if (vital?.flag) return { kind: 'value', text, flag: vital.flag, word: vital.word };
  const word = otherInterpretation(observation);
  return word ? { kind: 'value', text, word } : { kind: 'value', text };
}

/** A vital's value and its range flag, with the summary's rules; undefined for any other Observation. */
function vitalValue(observation: Observation): { text: string; flag?: ResultFlag; word?: string } | undefined {
  const readings = vitalReadings([observation]);
  if (readings.size === 0) return undefined;
  const panel = (observation.code?.coding ?? []).some((c) => BLOOD_PRESSURE_CODES.includes(c.code ?? ''));
  // A panel keeps both parts ('131/– mmHg' says the diastolic is missing); a part on its own is itself.
  const row: VitalRow = panel
    ? BLOOD_PRESSURE_ROW
    : { id: 'vital', label: '', series: VITALS.filter((vital) => readings.has(vital.key)) };
  const latest = latestOfRow(row, readings);
  const flagged = latest.parts.flatMap(({ definition, reading }) => {
    const flag = reading && rangeFlag(reading.value, rangeFor(observation, definition));
    return flag ? [{ flag, part: definition.label }] : [];
  });
  const text = latestValueText(latest);
  const first = flagged[0];
  if (!first) return { text };
  // 'High' when every part is (a blood pressure high in both), else which part is: 'Systolic high'.
  const allAlike = flagged.length === row.series.length && flagged.every(({ flag }) => flag === first.flag);
  return {
    text,
    flag: first.flag === 'High' ? 'high' : 'low',
    word: allAlike ? first.flag : flagged.map(({ flag, part }) => `${part} ${flag.toLowerCase()}`).join(', '),
  };
}

/** 'Panel of 3 results: Hemoglobin, Hematocrit, …': what a panel holds, by the names its references carry. */
function panelText(observation: Observation, names: ReferenceNames): string {
  const members = observation.hasMember ?? [];
  if (members.length === 0) return '';
  const count = `Panel of ${members.length} ${members.length === 1 ? 'result' : 'results'}`;
  const named = members.map((member) => referencedName(member, names, observation)).filter(Boolean);
  return named.length
    ? `${count}: ${named.join(', ')}`
    : `${count} (open the panel to see ${members.length === 1 ? 'it' : 'them'})`;
}

/** The interpretation in its own words when it is not normal and not a high, low or critical flag. */
function otherInterpretation(observation: Observation): string | undefined {
  const concepts = (observation.interpretation ?? []).filter(
    (concept) => !(concept.coding ?? []).some((coding) => NORMAL_INTERPRETATIONS.includes(coding.code ?? '')),
  );
  return concepts.map((concept) => formatCodeableConcept(concept)).find(Boolean);
}
