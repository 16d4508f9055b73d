// Public surface of custom-screens/eprescribing (being built in this session; see /work/clinical-contract.md).
export { EPrescribingPage } from './EPrescribingPage';
