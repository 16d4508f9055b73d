import type { Questionnaire, QuestionnaireItemAnswerOption } from '@medplum/fhirtypes';

/** Canonical URL of the bundled visit-note questionnaire; the visit note finds it by this. */
export const SOAP_NOTE_MENOPAUSE_URL = 'https://hearth-emr.org/fhir/Questionnaire/soap-note-menopause-service';
export const SOAP_NOTE_MENOPAUSE_TITLE = 'SOAP Note - Menopause Service';

const SNOMED = 'http://snomed.info/sct';
const CPT = 'http://www.ama-assn.org/go/cpt';

const option = (display: string, code: string): QuestionnaireItemAnswerOption => ({
  valueCoding: { system: 'https://hearth-emr.org/fhir/CodeSystem/soap-note-menopause', code, display },
});

/** The visit note of app-spec §3: a SOAP note for a menopause service visit (content, not code). */
export const soapNoteMenopauseQuestionnaire: Questionnaire = {
  resourceType: 'Questionnaire',
  url: SOAP_NOTE_MENOPAUSE_URL,
  version: '1.0.0',
  name: 'SOAPNoteMenopauseService',
  title: SOAP_NOTE_MENOPAUSE_TITLE,
  status: 'active',
  subjectType: ['Patient'],
  description: 'Visit note for the menopause service: subjective, objective, assessment and plan.',
  item: [
    { linkId: 'visit-date', text: 'Date of visit', type: 'date', initial: [{ valueDate: '2023-10-19' }] },
    {
      linkId: 'subjective',
      text: 'Subjective',
      type: 'group',
      item: [
        { linkId: 'hot-flashes', text: 'Hot flashes', type: 'boolean' },
        { linkId: 'mood-swings', text: 'Mood swings', type: 'boolean' },
        { linkId: 'vaginal-dryness', text: 'Vaginal dryness', type: 'boolean' },
        { linkId: 'sleep-disturbance', text: 'Sleep disturbance', type: 'boolean' },
        {
          linkId: 'self-reported-history',
          text: 'Self-reported history',
          type: 'open-choice',
          repeats: true,
          answerOption: [
            option('Blood clots', 'blood-clots'),
            option('Stroke', 'stroke'),
            option('Breast cancer', 'breast-cancer'),
            option('Endometrial cancer', 'endometrial-cancer'),
            option('Irregular bleeding', 'irregular-bleeding'),
            option('BMI > 30', 'bmi-over-30'),
          ],
        },
        { linkId: 'subjective-details', text: 'Details', type: 'text' },
      ],
    },
    {
      linkId: 'objective',
      text: 'Objective',
      type: 'group',
      item: [{ linkId: 'age-over-45', text: 'Confirmed patient age > 45 y', type: 'boolean' }],
    },
    {
      linkId: 'assessment',
      text: 'Assessment',
      type: 'group',
      item: [
        {
          linkId: 'diagnosis',
          text: 'Diagnosis',
          type: 'choice',
          answerOption: [
            { valueCoding: { system: SNOMED, code: '160245001', display: 'No current problems or disability' } },
            { valueCoding: { system: SNOMED, code: '160397006', display: 'Early menopause' } },
            { valueCoding: { system: SNOMED, code: '160398001', display: 'Late menopause' } },
          ],
        },
        { linkId: 'other-diagnosis', text: 'Other diagnosis code', type: 'string' },
      ],
    },
    {
      linkId: 'plan',
      text: 'Plan',
      type: 'group',
      item: [
        {
          linkId: 'plan-actions',
          text: 'Plan',
          type: 'open-choice',
          repeats: true,
          answerOption: [
            option('Order cholesterol test', 'order-cholesterol-test'),
            option('Order imaging', 'order-imaging'),
            option('Refer to specialist', 'refer-to-specialist'),
            option('Systemic HRT', 'systemic-hrt'),
            option('SSRI/SNRI', 'ssri-snri'),
            option('Local HRT', 'local-hrt'),
            option('OTC treatment', 'otc-treatment'),
          ],
        },
        {
          linkId: 'visit-code',
          text: 'Visit code',
          type: 'choice',
          answerOption: [
            { valueCoding: { system: CPT, code: '99204', display: 'Moderate Complexity' } },
            { valueCoding: { system: CPT, code: '99205', display: 'High Complexity' } },
          ],
        },
      ],
    },
  ],
};

/** Everything the product ships as questionnaire content, seeded into each project. */
export const bundledQuestionnaires: readonly Questionnaire[] = [soapNoteMenopauseQuestionnaire];
