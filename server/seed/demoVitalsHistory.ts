/** The vitals history's monthly visits. */
export const VITALS_VISITS = 12;
const VISIT_INTERVAL_DAYS = 30;

/**
 * Days (relative to today, negative in the past) of the vitals history's visits, oldest first:
 * monthly, the last one on `lastVisitDay` (the visit at which the story's treatment is started).
 */
export function vitalsVisitDays(lastVisitDay: number, visits = VITALS_VISITS): number[] {
  return Array.from({ length: visits }, (_, visit) => lastVisitDay - VISIT_INTERVAL_DAYS * (visits - 1 - visit));
}

/** Which visit the hypertension of the vitals history is diagnosed at: the second raised reading, as guidelines ask. */
export const DIAGNOSIS_VISIT = 1;

export interface BloodPressureStory {
  /** Whether the patient's story is their hypertension: raised readings until it is treated. */
  hypertensive: boolean;
  /** The day the blood pressure drug was started; readings on that day are before its first dose. */
  treatmentStartDay?: number;
}

export interface BloodPressure {
  systolic: number;
  diastolic: number;
}

/**
 * One visit's offset from the patient's usual reading: a fixed pattern, so that the same record gets
 * the same history on every fresh start, small enough that the trend is what a clinician sees.
 */
const SCATTER = [0, 3, -2, 5, 1, -3, 4, -1, 2, -4, 3, -1];
const scatter = (visit: number) => SCATTER[((visit % SCATTER.length) + SCATTER.length) % SCATTER.length];

/** Untreated: stage 2 on the office readings (140–155 / 88–98), as a young adult's often is. */
const RAISED: BloodPressure = { systolic: 147, diastolic: 93 };
/** Where amlodipine or lisinopril brings it within a few weeks. */
const TREATED: BloodPressure = { systolic: 128, diastolic: 80 };
const NORMAL: BloodPressure = { systolic: 114, diastolic: 74 };
/** Days for the drug to have most of its effect (amlodipine and ACE inhibitors: two to four weeks). */
const TREATMENT_EFFECT_DAYS = 14;

/**
 * The office blood pressure at a visit, in whole mmHg (what a sphygmomanometer shows): raised
 * before the story's treatment starts, coming down towards target in the weeks after; normal for
 * a patient whose story is not their hypertension.
 */
export function bloodPressureAt(visit: number, day: number, story: BloodPressureStory): BloodPressure {
  const offset = scatter(visit);
  const around = (usual: BloodPressure): BloodPressure => ({
    systolic: Math.round(usual.systolic + offset),
    diastolic: Math.round(usual.diastolic + offset * 0.6),
  });
  if (!story.hypertensive) return around(NORMAL);
  const start = story.treatmentStartDay;
  if (start === undefined || day <= start) return around(RAISED);
  const effect = 1 - Math.exp(-(day - start) / TREATMENT_EFFECT_DAYS);
  return around({
    systolic: RAISED.systolic + (TREATED.systolic - RAISED.systolic) * effect,
    diastolic: RAISED.diastolic + (TREATED.diastolic - RAISED.diastolic) * effect,
  });
}

/** Well controlled on treatment: below the care plan's 130/80 at every visit's scatter. */
const AT_GOAL: BloodPressure = { systolic: 122, diastolic: 75 };

/**
 * The office blood pressure of a patient whose treatment has brought it to target (the medication
 * history's patient, on lisinopril for months): under 130/80, in whole mmHg, so that renewing the
 * drug at the same dose is what a clinician would do.
 */
export function bloodPressureAtGoal(visit: number): BloodPressure {
  const offset = scatter(visit);
  return { systolic: AT_GOAL.systolic + offset, diastolic: Math.round(AT_GOAL.diastolic + offset * 0.6) };
}

export interface CalmVitals {
  heartRate: number;
  /** °C, one decimal. */
  temperature: number;
  respiratoryRate: number;
  /** SpO₂, %. */
  oxygen: number;
}

/**
 * A well outpatient's other vitals at a visit: temperature 36.5–37.0 °C, heart rate 68–77, breathing
 * 14–16 a minute, SpO₂ 96–98 %, varying a little from month to month and never flagged.
 */
export function calmVitalsAt(visit: number): CalmVitals {
  const offset = scatter(visit);
  return {
    heartRate: 72 + offset,
    temperature: Math.round((36.7 + offset * 0.05) * 10) / 10,
    respiratoryRate: 15 + Math.sign(offset),
    oxygen: 97 + Math.sign(scatter(visit + 3)),
  };
}
