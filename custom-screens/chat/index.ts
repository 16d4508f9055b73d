// Public surface of custom-screens/chat (being built in this session; see /work/clinical-contract.md).
export { PatientChatPage } from './PatientChatPage';
