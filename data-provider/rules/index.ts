// Public surface of the pure data rules shared by the browser, the server and the schema engine.
export {
  ADDRESS_FORM_FIELDS,
  ADDRESS_FORM_LINE_COUNT,
  ADDRESS_TYPES,
  ADDRESS_USES,
  type AddressFormField,
} from './addressFormFields';
export { calculateAge, calculateAgeString, type Age } from './calculateAge';
export { choosePhoto, isImageAttachment } from './choosePhoto';
export { imageSource } from './imageSource';
export { clinicalDateOf } from './clinicalDate';
export { isAfterDay, localDay } from './localDates';
export { createReference } from './createReference';
export { requireSingleton, singletonShapeError, unknownDataTypeError } from './dataShapeErrors';
export {
  dismissNotificationState,
  isNotificationVisible,
  nextNotificationState,
  NOTIFICATION_AUTO_HIDE_MS,
  NOTIFICATION_LIMIT,
  NOTIFICATION_POSITION,
  NOTIFICATION_STATES,
  type NotificationState,
} from './notificationStates';
export { LOOSE_NUMBER_TOLERANCE, preciseEquals, quantityEquals, STRICT_NUMBER_TOLERANCE } from './numberEquality';
export { getReferenceString, parseReferenceString } from './referenceString';
export { isKnownResourceType, knownResourceTypes } from './resourceTypes';
export { getStepState, getStepStates, type StepState } from './stepperStates';
export { appAddressProblem, isAllowedRedirectUri, redirectUriProblem } from './redirectUri';
export { appLaunchUrl, launchUriProblem } from './appLaunch';
export { parseAuthorizePrompt, type AuthorizePrompt } from './authorizePrompt';
export { adminSeatOf, lastAdminMessage, removesLastAdmin, type AdminSeat } from './lastProjectAdmin';
export { awaitingAddressOwnerText, awaitingAddressOwnerUrl, awaitsAddressOwner } from './membershipAwaitingOwner';
export { projectSettingNameProblem } from './projectSettingName';
export { tokenLifetimeProblem, tokenLifetimeSeconds } from './tokenLifetime';
export {
  isSiteDomain,
  maxSites,
  projectSiteProblems,
  siteTextFields,
  type SiteInput,
  type SiteProblem,
} from './projectSiteProblems';
export { isDeceased, type VitalStatus } from './vitalStatus';
