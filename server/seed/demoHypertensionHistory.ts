import type { Condition, Patient, Reference, Resource } from '@medplum/fhirtypes';
import { LOINC_SYSTEM, UCUM_SYSTEM } from '../../config/clinical/vitals';
import { antihypertensiveFor, LISINOPRIL } from './demoAntihypertensiveChoice';

const SNOMED = 'http://snomed.info/sct';
const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';

/** Synthea's "Hypertension" (SNOMED CT 38341003), in the records of the shipped fixtures. */
export const SYNTHEA_HYPERTENSION = '38341003';
/** "Essential hypertension" (SNOMED CT 59621000): newer Synthea's code, and the demo's problem-list entry. */
export const ESSENTIAL_HYPERTENSION = '59621000';
const HYPERTENSION_CODES = [SYNTHEA_HYPERTENSION, ESSENTIAL_HYPERTENSION];

type Create = (resource: { resourceType: string } & Record<string, unknown>) => Promise<Resource>;

interface StoryContext {
  create: Create;
  patient: Reference;
  alice: Reference;
  /** The patient's hypertension, as their imported record has it: the reason of the blood pressure orders. */
  hypertension: Reference;
  at: (days: number, hour?: number) => string;
}

/**
 * The patient with the longest-standing active hypertension of the imported records (Synthea's
 * Lemuel Hodkiewicz in the shipped fixtures: hypertension since 2007, on hydrochlorothiazide, blood
 * pressure still about 174/106 at his last imported visit): the chart the medication history and
 * the echocardiogram belong to. Chosen by the record, not by its random id, so that it is the same
 * patient on every fresh start. The caller passes adults only: the story is an adult's. The history
 * ends on lisinopril, so a woman who may become pregnant (antihypertensiveFor) is not its patient.
 */
export function hypertensionStoryPatient(
  patients: readonly Patient[],
  conditions: readonly Condition[],
  today: Date,
): { patient: Patient; hypertension: Condition } | undefined {
  const candidates = conditions
    .filter(
      (condition) =>
        condition.code?.coding?.some((c) => c.system === SNOMED && HYPERTENSION_CODES.includes(c.code ?? '')) &&
        condition.clinicalStatus?.coding?.some((c) => c.code === 'active') &&
        condition.onsetDateTime,
    )
    .sort((a, b) => Date.parse(a.onsetDateTime as string) - Date.parse(b.onsetDateTime as string));
  for (const hypertension of candidates) {
    const patient = patients.find((p) => hypertension.subject?.reference === `Patient/${p.id}`);
    if (patient && antihypertensiveFor(patient, today) === LISINOPRIL) return { patient, hypertension };
  }
  return undefined;
}

const concept = (system: string, code: string, display: string) => ({
  coding: [{ system, code, display }],
  text: display,
});
/** An RxNorm drug; `text` is what the clinician picked, when it reads better than RxNorm's full name. */
const rxnorm = (code: string, display: string, text = display) => ({ ...concept(RXNORM, code, display), text });
const NINETY_DAYS = { value: 90, unit: 'days', system: UCUM_SYSTEM, code: 'd' };

const ACUTE_BRONCHITIS = concept(SNOMED, '10509002', 'Acute bronchitis');
const ALLERGIC_RHINITIS = concept(SNOMED, '367498001', 'Seasonal allergic rhinitis');
const LOW_BACK_PAIN = concept(SNOMED, '279039007', 'Low back pain');

/**
 * About two years of this patient's prescriptions before today, written by Dr. Alice Carter: the
 * blood pressure treatment added to his hydrochlorothiazide (amlodipine, renewed twice, stopped for
 * ankle swelling; then lisinopril, renewed, whose current order is his hypertension story's), and the
 * short courses of the episodes between (acute bronchitis, seasonal allergic rhinitis twice, a low
 * back strain whose naproxen raised his blood pressure). With the imported stopped orders, seven past
 * medications: the sidebar folds them behind "Show 7 past medications". Then the echocardiogram
 * ordered for his long-standing hypertension, with its report. (`create` counts what is written.)
 */
export async function seedHypertensionStory(story: StoryContext): Promise<void> {
  const { create, patient, alice, hypertension, at } = story;
  const order = async (fields: {
    medication: ReturnType<typeof rxnorm>;
    status: 'completed' | 'stopped';
    authored: number;
    dosage: string;
    reason: { reasonReference: Reference[] } | { reasonCode: ReturnType<typeof concept>[] };
    stoppedBecause?: string;
    chronic?: boolean;
  }) => {
    await create({
      resourceType: 'MedicationRequest',
      status: fields.status,
      ...(fields.stoppedBecause ? { statusReason: { text: fields.stoppedBecause } } : {}),
      intent: 'order',
      medicationCodeableConcept: fields.medication,
      subject: patient,
      requester: alice,
      authoredOn: at(fields.authored),
      ...fields.reason,
      dosageInstruction: [{ text: fields.dosage }],
      ...(fields.chronic
        ? { dispenseRequest: { numberOfRepeatsAllowed: 0, expectedSupplyDuration: NINETY_DAYS } }
        : {}),
    });
  };
  const forHypertension = { reasonReference: [hypertension] };

  // Acute bronchitis again (his record has one in 2011): the same cough syrup as then, and an inhaler.
  const cough = { reasonCode: [ACUTE_BRONCHITIS] };
  await order({
    medication: rxnorm(
      '1043400',
      'Acetaminophen 21.7 MG/ML / Dextromethorphan Hydrobromide 1 MG/ML / doxylamine succinate 0.417 MG/ML Oral Solution',
    ),
    status: 'completed',
    authored: -700,
    dosage: '30 mL by mouth at bedtime as needed for cough, for up to 7 days',
    reason: cough,
  });
  await order({
    medication: rxnorm(
      '859088',
      'NDA020983 200 ACTUAT albuterol 0.09 MG/ACTUAT Metered Dose Inhaler [Ventolin]',
      'Ventolin HFA 90 mcg/actuation inhaler (albuterol)',
    ),
    status: 'completed',
    authored: -700,
    dosage: '2 puffs inhaled every 4 to 6 hours as needed for cough or wheeze',
    reason: cough,
  });
  // Hay fever, two springs.
  for (const authored of [-640, -275]) {
    await order({
      medication: rxnorm('311372', 'Loratadine 10 MG Oral Tablet'),
      status: 'completed',
      authored,
      dosage: '1 tablet by mouth once daily during the pollen season',
      reason: { reasonCode: [ALLERGIC_RHINITIS] },
    });
  }
  // A low back strain: naproxen put his blood pressure up within a week, acetaminophen instead.
  await order({
    medication: rxnorm('849574', 'Naproxen sodium 220 MG Oral Tablet'),
    status: 'stopped',
    stoppedBecause: 'Blood pressure rose to 168/104 on naproxen; changed to acetaminophen',
    authored: -560,
    dosage: '1 tablet by mouth every 8 to 12 hours with food as needed for back pain',
    reason: { reasonCode: [LOW_BACK_PAIN] },
  });
  await order({
    medication: rxnorm('313782', 'Acetaminophen 325 MG Oral Tablet'),
    status: 'completed',
    authored: -553,
    dosage: '2 tablets by mouth every 6 hours as needed for pain, no more than 8 tablets a day',
    reason: { reasonCode: [LOW_BACK_PAIN] },
  });
  // Blood pressure above target on hydrochlorothiazide alone: amlodipine added, 90 days at a time.
  for (const [authored, status] of [
    [-420, 'completed'],
    [-330, 'completed'],
    [-240, 'stopped'],
  ] as const) {
    await order({
      medication: rxnorm('197361', 'Amlodipine 5 MG Oral Tablet'),
      status,
      ...(status === 'stopped' ? { stoppedBecause: 'Ankle swelling; changed to lisinopril' } : {}),
      authored,
      dosage: '1 tablet by mouth once daily',
      reason: forHypertension,
      chronic: true,
    });
  }
  // Lisinopril instead; its current order is his hypertension story's (seedDemoClinicalData), these came before it.
  for (const authored of [-200, -110]) {
    await order({
      medication: rxnorm(LISINOPRIL.code, LISINOPRIL.display),
      status: 'completed',
      authored,
      dosage: LISINOPRIL.dosage,
      reason: forHypertension,
      chronic: true,
    });
  }

  await seedEchocardiogram(story);
}

/**
 * The transthoracic echocardiogram report, as the cardiology system sends it (presentedForm): one line
 * a paragraph or measurement, since the report view wraps the text in the app's own font.
 */
export const ECHO_REPORT_TEXT = `TRANSTHORACIC ECHOCARDIOGRAM

Indication: Long-standing essential hypertension, above target on hydrochlorothiazide until lisinopril was added. Assess for hypertensive heart disease.
Study: Complete 2D, M-mode, color and spectral Doppler. Image quality good. Sinus rhythm throughout.

MEASUREMENTS
Interventricular septum, diastole: 1.3 cm (normal 0.6-1.0)
LV posterior wall, diastole: 1.2 cm (normal 0.6-1.0)
LV internal diameter, diastole: 4.9 cm (normal 4.2-5.8)
LV mass index: 120 g/m2 (normal 49-115)
Relative wall thickness: 0.49 (normal 0.42 or less)
LV ejection fraction, biplane: 62 % (normal 52-72)
Left atrial volume index: 31 mL/m2 (normal 16-34)
Mitral E/A ratio: 0.8
Average E/e': 9 (normal 14 or less)
TAPSE: 2.3 cm (normal 1.7 or more)
Aortic root: 3.3 cm (normal up to 4.0)

FINDINGS
Left ventricle: Normal cavity size. Mild concentric hypertrophy. Normal systolic function without regional wall motion abnormality. Impaired relaxation (grade I diastolic dysfunction) with normal estimated filling pressure.
Right ventricle: Normal size and systolic function.
Atria: Left atrium at the upper limit of normal size. Normal right atrium.
Valves: Trileaflet aortic valve without stenosis or regurgitation. Trace mitral and tricuspid regurgitation (physiological). Estimated PA systolic pressure 24 mmHg.
Aorta: Normal aortic root and ascending aorta.
Pericardium: No effusion.

CONCLUSION
1. Mild concentric left ventricular hypertrophy with normal LV size and ejection fraction (62 %), consistent with hypertensive heart disease.
2. Grade I diastolic dysfunction.
3. No significant valvular disease.

Recommendation: Blood pressure control to target. Repeat echocardiogram in 12 months, or sooner if symptoms develop.

Reported by Dr. Priya Natarajan, Cardiology
`;

export const ECHO_CONCLUSION =
  'Mild concentric left ventricular hypertrophy with normal LV size and ejection fraction (62 %), consistent ' +
  'with hypertensive heart disease; grade I diastolic dysfunction; no significant valvular disease.';

/** Alice's order for the echocardiogram, and the report that answers it: a week and a half ago. */
async function seedEchocardiogram(story: StoryContext): Promise<void> {
  const { create, patient, alice, hypertension, at } = story;
  const echo = concept(LOINC_SYSTEM, '34552-0', 'Cardiac 2D echo panel');
  const order = await create({
    resourceType: 'ServiceRequest',
    status: 'completed',
    intent: 'order',
    priority: 'routine',
    category: [{ coding: [{ system: SNOMED, code: '363679005', display: 'Imaging' }] }],
    code: { ...echo, text: 'Transthoracic echocardiogram' },
    subject: patient,
    requester: alice,
    authoredOn: at(-24),
    reasonReference: [hypertension],
  });
  const issued = at(-10, 15);
  await create({
    resourceType: 'DiagnosticReport',
    status: 'final',
    category: [
      { coding: [{ system: LOINC_SYSTEM, code: 'LP29708-2', display: 'Cardiology' }] },
      {
        coding: [
          { system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'CUS', display: 'Cardiac Ultrasound' },
        ],
      },
    ],
    code: { ...echo, text: 'Transthoracic echocardiogram' },
    subject: patient,
    basedOn: [{ reference: `ServiceRequest/${order.id}` }],
    effectiveDateTime: at(-10, 10),
    issued,
    performer: [{ display: 'Demo Clinic Cardiology' }],
    resultsInterpreter: [{ display: 'Dr. Priya Natarajan, Cardiology' }],
    conclusion: ECHO_CONCLUSION,
    conclusionCode: [concept(SNOMED, '55827005', 'Left ventricular hypertrophy')],
    presentedForm: [
      {
        contentType: 'text/plain',
        language: 'en-US',
        data: Buffer.from(ECHO_REPORT_TEXT, 'utf8').toString('base64'),
        size: Buffer.byteLength(ECHO_REPORT_TEXT, 'utf8'),
        title: 'Transthoracic echocardiogram report',
        creation: issued,
      },
    ],
  });
}
