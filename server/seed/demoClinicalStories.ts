import { AMLODIPINE, LISINOPRIL, type Antihypertensive } from './demoAntihypertensiveChoice';
import { ESSENTIAL_HYPERTENSION, SYNTHEA_HYPERTENSION } from './demoHypertensionHistory';

/** A code of SNOMED CT, LOINC or RxNorm with its display, as the terminology (or Synthea) names it. */
export interface CodedConcept {
  code: string;
  display: string;
}

export interface StoryCondition {
  /** The problem-list entry (SNOMED CT) the seed adds when the record does not list the condition yet. */
  problem: CodedConcept;
  /**
   * Every SNOMED CT code an imported record may carry for this condition (Synthea's older and newer
   * codes, the childhood form): one of them current on the record is the same problem, not a new one.
   */
  recordedAs: readonly string[];
}

/**
 * One patient's demo story: the problem, what treats it, how it is followed, and what the patient
 * and Dr. Alice Carter write about it. Every part is about the same condition, so that the chart's
 * problem list, medications, care plan, labs, devices, tasks and messages agree with each other.
 */
export interface ClinicalStory {
  /** Adult-only stories are never told about a child (under 18 on the day of the seed). */
  ages: 'adults' | 'children' | 'everyone';
  condition?: StoryCondition;
  /** The active order the story adds; given only with a condition, which is its reason. */
  medication?: CodedConcept & { dosage: string };
  carePlan: {
    title: string;
    description: string;
    /** SNOMED CT categories of the same plan in an imported record (Synthea's): then that one is followed up. */
    recordedAs?: readonly string[];
  };
  lab: CodedConcept & {
    /** How the clinic names the test (the order's text; "Review {name}" on the task). */
    name: string;
    /** Whether the test follows the story's condition (then the condition is the order's reason). */
    monitorsCondition: boolean;
  };
  /** The patient's home device: a Device for half the patients, a DeviceRequest for the others. */
  device?: CodedConcept & { name: string };
  /** The visit of three weeks ago (a fulfilled Appointment). */
  pastVisit: string;
  /** The body of the referral letter after "Please see this patient ". */
  referral: string;
  messages: {
    /** Alice's message about the lab order. */
    fromAlice: string;
    /** The patient's unread reply. */
    fromPatient: string;
    /** The reply of the clinic's one urgent patient instead (pinned on the timeline, app-spec §4 "Timeline ordering"). */
    urgentFromPatient: string;
  };
}

const SYNTHEA_DIABETES = '44054006';
const SYNTHEA_ASTHMA = '195967001';
const SYNTHEA_CHILDHOOD_ASTHMA = '233678006';
const SEASONAL_ALLERGIC_RHINITIS = '367498001';

const HYPERTENSION_CONDITION: StoryCondition = {
  problem: { code: ESSENTIAL_HYPERTENSION, display: 'Essential hypertension' },
  recordedAs: [ESSENTIAL_HYPERTENSION, SYNTHEA_HYPERTENSION],
};

/** What the hypertension story says about its drug: only these parts differ from one drug to the other. */
interface HypertensionTreatment {
  medication: Antihypertensive;
  /** The care plan's words on the drug, between the home readings and the target. */
  planNote: string;
  /** Why Alice orders the blood test, in her words to the patient. */
  testChecks: string;
}

/**
 * The hypertension story, told with the drug the patient is started on (antihypertensiveFor): the
 * order, the care plan and Alice's message about the blood test all name that drug and no other.
 * The test is the basic metabolic panel whatever the drug: creatinine and potassium are checked when
 * blood pressure treatment starts and each year, and on an ACE inhibitor after each dose change.
 */
function hypertensionStory({ medication, planNote, testChecks }: HypertensionTreatment): ClinicalStory {
  return {
    ages: 'adults',
    condition: HYPERTENSION_CONDITION,
    medication,
    carePlan: {
      title: 'Hypertension follow-up plan',
      description: `Home blood pressure twice a day, reviewed at each visit; ${planNote}; adjust treatment if the average is above 130/80.`,
    },
    lab: {
      code: '24321-2',
      display: 'Basic metabolic 2000 panel - Serum or Plasma',
      name: 'Basic metabolic panel',
      monitorsCondition: true,
    },
    device: {
      code: '466086009',
      display: 'Automatic-inflation electronic sphygmomanometer, portable, arm/wrist',
      name: 'Home blood pressure monitor',
    },
    pastVisit: 'Blood pressure check',
    referral: 'for a review of their blood pressure treatment.',
    messages: {
      fromAlice: `Your blood test is ordered: ${testChecks}. Please come in fasting tomorrow morning.`,
      fromPatient: 'Thank you, I will be there and bring my home blood pressure log.',
      urgentFromPatient: 'My home blood pressure readings are above 160 this week. Should I come in sooner?',
    },
  };
}

export const HYPERTENSION: ClinicalStory = hypertensionStory({
  medication: LISINOPRIL,
  planNote: 'lisinopril 10 mg once daily, with kidney function and potassium checked every year',
  testChecks: 'it checks your kidneys and potassium on lisinopril',
});

/** The same story for a woman who may become pregnant: amlodipine, as no ACE inhibitor is started for her. */
export const HYPERTENSION_ON_AMLODIPINE: ClinicalStory = hypertensionStory({
  medication: AMLODIPINE,
  planNote:
    'amlodipine 5 mg once daily, no ACE inhibitor or ARB while a pregnancy is possible (to tell the clinic before trying for one)',
  testChecks: 'it is the yearly check of your kidneys and salt levels on blood pressure treatment',
});

/** The hypertension story with the given drug (antihypertensiveFor's choice). */
export function hypertensionStoryWith(medication: Antihypertensive): ClinicalStory {
  return medication === AMLODIPINE ? HYPERTENSION_ON_AMLODIPINE : HYPERTENSION;
}

export function isHypertensionStory(story: ClinicalStory): boolean {
  return story.condition === HYPERTENSION_CONDITION;
}

export const TYPE_2_DIABETES: ClinicalStory = {
  ages: 'adults',
  condition: {
    problem: { code: SYNTHEA_DIABETES, display: 'Diabetes mellitus type 2' },
    recordedAs: [SYNTHEA_DIABETES],
  },
  // RxNorm 860975 is the extended-release tablet (Synthea's code), taken once a day.
  medication: {
    code: '860975',
    display: '24 HR metformin hydrochloride 500 MG Extended Release Oral Tablet',
    dosage: '1 tablet daily with the evening meal',
  },
  carePlan: {
    title: 'Diabetes self-management plan',
    description: 'Fasting glucose at home each morning, HbA1c every 3 months, yearly eye and foot examination.',
    recordedAs: ['698360004'],
  },
  lab: {
    code: '4548-4',
    display: 'Hemoglobin A1c/Hemoglobin.total in Blood',
    name: 'HbA1c',
    monitorsCondition: true,
  },
  device: { code: '337414009', display: 'Blood glucose meter', name: 'Home blood glucose meter' },
  pastVisit: 'Diabetes check',
  referral: 'for their yearly diabetic eye examination.',
  messages: {
    fromAlice: 'Your HbA1c test is ordered. No need to fast: come in any morning this week.',
    fromPatient: 'My morning sugars were between 140 and 180 this week. Should I change my metformin?',
    urgentFromPatient: 'My sugar was over 300 twice this week and I am very thirsty. Should I come in sooner?',
  },
};

export const ASTHMA: ClinicalStory = {
  ages: 'everyone',
  condition: {
    problem: { code: SYNTHEA_ASTHMA, display: 'Asthma' },
    recordedAs: [SYNTHEA_ASTHMA, SYNTHEA_CHILDHOOD_ASTHMA],
  },
  // Synthea's own albuterol inhaler (RxNorm 745679), the reliever of its asthma module.
  medication: {
    code: '745679',
    display: '200 ACTUAT Albuterol 0.09 MG/ACTUAT Metered Dose Inhaler',
    dosage: '2 puffs every 4 hours as needed for wheezing',
  },
  carePlan: {
    title: 'Asthma action plan',
    description:
      'Reliever inhaler as needed; call the clinic if it is needed more than twice a week or at night, or if peak flow falls below 80 % of best.',
    recordedAs: ['699728000'],
  },
  // The eosinophil count tells allergic asthma apart.
  lab: {
    code: '57021-8',
    display: 'CBC W Auto Differential panel - Blood',
    name: 'CBC with differential',
    monitorsCondition: true,
  },
  device: { code: '334990001', display: 'Peak flow meter', name: 'Peak flow meter' },
  pastVisit: 'Asthma review',
  referral: 'for spirometry and a review of their asthma.',
  messages: {
    fromAlice: 'Your blood test is ordered. No need to fast: come in any morning this week.',
    fromPatient: 'I have been using my inhaler more often this month, mostly at night. Should I come in?',
    urgentFromPatient: 'I have needed my inhaler every few hours since yesterday. Should I come in today?',
  },
};

/** An adult whose record has none of the conditions above: the yearly check-up, and hay fever. */
export const PREVENTIVE_CARE: ClinicalStory = {
  ages: 'adults',
  condition: {
    problem: { code: SEASONAL_ALLERGIC_RHINITIS, display: 'Seasonal allergic rhinitis' },
    recordedAs: [SEASONAL_ALLERGIC_RHINITIS],
  },
  medication: {
    code: '311372',
    display: 'Loratadine 10 MG Oral Tablet',
    dosage: '1 tablet by mouth once daily during the pollen season',
  },
  carePlan: {
    title: 'Preventive care plan',
    description: 'Yearly check-up with screening blood tests and vaccines; antihistamine through the pollen season.',
  },
  // Cholesterol screening at the yearly check-up, not a test of the hay fever.
  lab: {
    code: '57698-3',
    display: 'Lipid panel with direct LDL - Serum or Plasma',
    name: 'Lipid panel',
    monitorsCondition: false,
  },
  pastVisit: 'Hay fever review',
  referral: 'for allergy testing: seasonal allergic rhinitis, not controlled by loratadine alone.',
  messages: {
    fromAlice: 'Your cholesterol test for the yearly check-up is ordered. Please come in fasting tomorrow morning.',
    fromPatient: 'Thank you, I will be there.',
    urgentFromPatient: 'My hay fever is much worse and I have been wheezing at night. Should I come in sooner?',
  },
};

/** A child whose record has no condition of a story: check-ups and vaccines, no medication. */
export const WELL_CHILD: ClinicalStory = {
  ages: 'children',
  carePlan: {
    title: 'Well-child care plan',
    description: 'Growth and development checks at each visit; vaccines on schedule.',
  },
  lab: {
    code: '58410-2',
    display: 'CBC panel - Blood by Automated count',
    name: 'Complete blood count',
    monitorsCondition: false,
  },
  pastVisit: 'Well-child visit',
  referral: 'for a routine dental check.',
  messages: {
    fromAlice: 'The blood count for the check-up is ordered. No need to fast.',
    fromPatient: 'Thank you, we will be there.',
    urgentFromPatient: 'Fever of 39.5 °C since last night and not drinking much. Should we come in today?',
  },
};

/**
 * The stories a record's own conditions choose, the first that fits first (a patient gets one
 * story): the rarer, more specific ones before hypertension, which is common beside them (a diabetic
 * with hypertension is told as a diabetic, whose plan covers the blood pressure too).
 */
export const RECORDED_STORIES: readonly ClinicalStory[] = [TYPE_2_DIABETES, ASTHMA, HYPERTENSION];
