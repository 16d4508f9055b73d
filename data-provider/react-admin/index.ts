export { createFhirAuthProvider } from './fhirAuthProvider';
export { createFhirDataProvider } from './fhirDataProvider';
