export { operationRoutes, type OperationRoutesOptions } from './operationRoutes';
export { exportRoutes, type ExportRoutesOptions } from './export/exportRoutes';
export { patientEverything } from './patientEverything';
export { validateOperation } from './validateOperation';
export { expandProfile, profileDependencies } from './expandProfile';
export { graphOperation, findGraphDefinition } from './graphOperation';
