import type { CarePlan, Condition } from '@medplum/fhirtypes';
import { CURRENT_CONDITION_STATUSES, isProblemListEntry } from '../../config/clinical/problemList';
import { antihypertensiveFor } from './demoAntihypertensiveChoice';
import {
  HYPERTENSION,
  hypertensionStoryWith,
  PREVENTIVE_CARE,
  RECORDED_STORIES,
  WELL_CHILD,
  type ClinicalStory,
  type StoryCondition,
} from './demoClinicalStories';
import { isAdultOn, type PatientRecord } from './demoPatientRecord';

const SNOMED = 'http://snomed.info/sct';

function isCurrent(condition: Condition): boolean {
  const status = condition.clinicalStatus?.coding?.[0]?.code;
  return status !== undefined && CURRENT_CONDITION_STATUSES.includes(status) && !condition.abatementDateTime;
}

function isCodedAs(condition: Condition, codes: readonly string[]): boolean {
  return condition.code?.coding?.some((c) => c.system === SNOMED && codes.includes(c.code ?? '')) ?? false;
}

/** The record's current condition the story is about, if the chart already lists it as a problem. */
export function listedProblemOf(record: PatientRecord, condition: StoryCondition): Condition | undefined {
  return record.conditions.find((c) => isCurrent(c) && isCodedAs(c, condition.recordedAs) && isProblemListEntry(c));
}

function hasCurrent(record: PatientRecord, condition: StoryCondition | undefined): boolean {
  return condition !== undefined && record.conditions.some((c) => isCurrent(c) && isCodedAs(c, condition.recordedAs));
}

/** The record's active care plan of the story's kind (Synthea's diabetes self-management plan), if any. */
export function recordedPlanOf(record: PatientRecord, story: ClinicalStory): CarePlan | undefined {
  const kinds = story.carePlan.recordedAs ?? [];
  return record.carePlans.find(
    (plan) =>
      plan.status === 'active' &&
      (plan.category ?? []).some((category) => category.coding?.some((c) => kinds.includes(c.code ?? ''))),
  );
}

function fitsAge(story: ClinicalStory, adult: boolean): boolean {
  return story.ages === 'everyone' || (story.ages === 'adults') === adult;
}

/**
 * The patient's story, from their own record: the first of RECORDED_STORIES whose condition is
 * current on the record and that fits their age; the hypertension story for an adult whose chart the
 * demo writes as hypertensive (the vitals history's patient, so that the chart's blood pressure
 * trend, problem list and medication agree; the medication history's, whose current order is the
 * story's lisinopril); else the yearly check-up of an adult or a child. The hypertension story is
 * told with the drug this patient would be started on (antihypertensiveFor).
 */
export function chooseStory(
  record: PatientRecord,
  options: { today: Date; writtenAsHypertensive: boolean },
): ClinicalStory {
  const adult = isAdultOn(record.patient, options.today);
  const recorded =
    options.writtenAsHypertensive && adult
      ? HYPERTENSION
      : RECORDED_STORIES.find((story) => fitsAge(story, adult) && hasCurrent(record, story.condition));
  if (recorded === HYPERTENSION) return hypertensionStoryWith(antihypertensiveFor(record.patient, options.today));
  return recorded ?? (adult ? PREVENTIVE_CARE : WELL_CHILD);
}
