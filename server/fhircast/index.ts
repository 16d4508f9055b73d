export { fhircastRoutes, FHIRCAST_WEBSOCKET_PREFIX } from './fhircastRoutes';
export { checkEventEnvelope, nextContext } from './fhircastContextState';
