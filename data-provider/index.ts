// Public surface of the client layer (data-and-client-layer-spec.md). Browser, server and tests import from here.
export { isUuid, primitiveTypes, validatePrimitive } from './validation/primitiveRules';
export * from './access';
export * from './client';
export * from './fhircast';
export * from './formatting';
export * from './outcomes';
export * from './react-admin';
export * from './realtime';
export * from './rules';
export * from './search';
