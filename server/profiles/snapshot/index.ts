export { generateSnapshot, SnapshotError, unslicedId, type DefinitionResolver } from './generateSnapshot';
export { needsSnapshot, withGeneratedSnapshot } from './completeSnapshot';
export { snapshotRoutes, type SnapshotRoutesOptions } from './snapshotRoutes';
