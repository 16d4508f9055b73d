// Questionnaires the product ships (seeded into every project by server/seed/bundledQuestionnaires.ts).
export {
  soapNoteMenopauseQuestionnaire,
  bundledQuestionnaires,
  SOAP_NOTE_MENOPAUSE_URL,
  SOAP_NOTE_MENOPAUSE_TITLE,
} from './soapNoteMenopause';
