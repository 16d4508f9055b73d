/** Reference search page size (app-spec §9). */
export const REFERENCE_SEARCH_COUNT = 10;

// Resource types whose `name` search parameter finds them by what people call them.
const NAMED_TYPES = new Set([
  'AccessPolicy',
  'ActivityDefinition',
  'Bot',
  'ClientApplication',
  'CodeSystem',
  'Group',
  'HealthcareService',
  'InsurancePlan',
  'Location',
  'Organization',
  'Patient',
  'Person',
  'PlanDefinition',
  'Practitioner',
  'Project',
  'Questionnaire',
  'RelatedPerson',
  'StructureDefinition',
  'ValueSet',
]);

/** The search parameter a reference picker uses for typed text (app-spec §7). */
export function referenceSearchField(resourceType: string): string {
  switch (resourceType) {
    case 'Device':
      return 'device-name';
    case 'Observation':
      return 'code';
    case 'Subscription':
      return 'criteria';
    case 'User':
      return 'email:contains';
    default:
      return NAMED_TYPES.has(resourceType) ? 'name' : '_id';
  }
}

/** Target types of a Reference element from its target profiles (`…/StructureDefinition/Patient`). */
export function referenceTargetTypes(targetProfiles: readonly string[]): string[] {
  const types = targetProfiles.map((url) => url.split('/').pop() ?? '').filter((type) => type && type !== 'Resource');
  return [...new Set(types)];
}
