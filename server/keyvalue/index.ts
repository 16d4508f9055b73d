export { keyValueRoutes } from './keyValueRoutes';
export { KeyValueStore } from './keyValueStore';
export { maxKeyLength, maxKeysPerUser, maxValueBytes } from './keyValueLimits';
