import type { AccessInteraction } from './accessPolicy';
import { isResourceScopeText, parseResourceScope, type ResourceScope } from './smartScopes';

/**
 * What a SMART scope lets an app do, in words a clinician or a patient reads on the consent step
 * ("Choose scope"), next to the scope itself. Pure, and from the same parser the server enforces
 * scopes with, so the words never promise more than the token will allow.
 */

const identityScopes: Record<string, string> = {
  openid: 'Know who you are (your sign-in identity)',
  fhirUser: 'Know your profile: your name and role here',
  profile: 'Know your name',
  email: 'Know your e-mail address',
  offline_access: 'Keep its access when you are away, until you sign out everywhere or revoke it',
  offline: 'Keep its access when you are away, until you sign out everywhere or revoke it',
  online_access: 'Keep its access while you stay signed in',
  launch: 'Know which patient (and visit) is open in the chart',
  'launch/patient': 'Know which patient it is about',
  'launch/encounter': 'Know which visit it is about',
};

// Verbs in the order people list them; `vread` and `history` go with reading, `patch` with changing.
const verbs: [string, readonly AccessInteraction[]][] = [
  ['read', ['read', 'vread']],
  ['search', ['search']],
  ['create', ['create']],
  ['change', ['update', 'patch']],
  ['delete', ['delete']],
];

function listed(words: string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/** `AllergyIntolerance` → `allergy intolerance`. */
function typeWords(resourceType: string): string {
  return resourceType.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

function describeResourceScope(scope: ResourceScope): string {
  const granted = verbs.filter(([, interactions]) => interactions.some((i) => scope.interactions.includes(i)));
  const action = listed(granted.map(([verb]) => verb));
  const sentence = action.charAt(0).toUpperCase() + action.slice(1);
  const what = scope.resourceType === '*' ? 'all records' : `${typeWords(scope.resourceType)} records`;
  const whose =
    scope.context === 'patient'
      ? 'of the patient it is about'
      : scope.context === 'user'
        ? 'you have access to'
        : 'you have access to, as a back-end service';
  const only = scope.query ? ` (only those where ${scope.query.split('&').join(' and ')})` : '';
  return `${sentence} ${what} ${whose}${only}`;
}

/** The words for one scope of an authorization request. */
export function describeScope(scope: string): string {
  const identity = identityScopes[scope];
  if (identity) return identity;
  if (isResourceScopeText(scope)) {
    const parsed = parseResourceScope(scope);
    return parsed ? describeResourceScope(parsed) : 'Not a valid SMART scope: it grants nothing';
  }
  return 'Not used by this server: it grants nothing';
}
