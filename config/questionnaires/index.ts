// Questionnaires the product ships: the visit note (seeded into every project by
// server/seed/bundledQuestionnaires.ts) and demo content for the Demo Clinic.
export {
  soapNoteMenopauseQuestionnaire,
  bundledQuestionnaires,
  SOAP_NOTE_MENOPAUSE_URL,
  SOAP_NOTE_MENOPAUSE_TITLE,
} from './soapNoteMenopause';
export { phq9 } from './phq9';
export { newPatientIntake } from './newPatientIntake';
