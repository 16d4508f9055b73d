/**
 * Credentials stored on the administration types that only the project's admins (and super
 * admins) may read: a member who read a ClientApplication's secret could sign in as that client
 * (an admin client makes them an admin), and Project secrets are what bots use to reach other
 * systems. Members still read the rest of these resources (names, redirect URIs, sites).
 */
const adminOnlyFields: Record<string, readonly string[]> = {
  Project: ['secret', 'site.googleClientSecret', 'site.recaptchaSecretKey'],
  ClientApplication: ['secret', 'retiringSecret', 'identityProvider.clientSecret'],
};

export function adminOnlyFieldsFor(resourceType: string): readonly string[] {
  return adminOnlyFields[resourceType] ?? [];
}
