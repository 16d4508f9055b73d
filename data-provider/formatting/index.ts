// Public surface of the display formatting shared by the browser, the server and the schema engine.
export { formatAddress, type AddressFormatOptions } from './formatAddress';
export { decodeBase64Text, inlineTextOf } from './attachmentText';
export { formatCodeableConcept, formatCoding } from './formatCoding';
export { formatContactPoint } from './formatContactPoint';
export { formatDate, formatDateTime, readableTimestamp } from './formatDate';
export { formatHumanName, type HumanNameFormatOptions } from './formatHumanName';
export { formatIdentifier } from './formatIdentifier';
export { formatObservationValue, type ObservationValueFormatOptions } from './formatObservationValue';
export { formatPeriod } from './formatPeriod';
export { formatQuantity, formatRange } from './formatQuantity';
export { getDisplayString } from './getDisplayString';
export { ageOf, readableDate } from './readableDates';
export { nameOfResource } from './resourceName';
