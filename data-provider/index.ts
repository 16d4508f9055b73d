// Public surface of the client layer (data-and-client-layer-spec.md). Browser, server and tests import from here.
export { isUuid, primitiveTypes, validatePrimitive } from './validation/primitiveRules';
export { formatHumanName } from './formatting/formatHumanName';
