import { describe, expect, it } from 'vitest';
import { mayHoldProtectedFields, withoutProtectedFields } from './protectedFields';

describe('mayHoldProtectedFields', () => {
  it.each(['User', 'Login', 'UserSecurityRequest', 'PasswordChangeRequest'])(
    'is true for stored text of a %s, at the top and nested',
    (type) => {
      expect(mayHoldProtectedFields(JSON.stringify({ resourceType: type, id: 'x' }))).toBe(true);
      const bundle = { resourceType: 'Bundle', entry: [{ resource: { resourceType: type, id: 'x' } }] };
      expect(mayHoldProtectedFields(JSON.stringify(bundle))).toBe(true);
    },
  );

  it('is false for text that names no such type, including types that only start like one', () => {
    const texts = [
      { resourceType: 'Observation', id: 'o', code: { text: 'User reported pain' } },
      { resourceType: 'UserConfiguration', id: 'u', name: 'Username' },
      { resourceType: 'Patient', id: 'p', name: [{ family: 'Logins' }] },
      { resourceType: 'Parameters', parameter: [{ name: 'PasswordChangeRequests' }] },
      // Ends like a type name: the quick search hits, the full pattern does not.
      { resourceType: 'Observation', id: 'o', code: { text: 'EndUser' }, note: [{ text: 'SSOLogin' }] },
    ];
    for (const text of texts) expect(mayHoldProtectedFields(JSON.stringify(text))).toBe(false);
  });

  it('finds a type named after a near miss of another', () => {
    const text = JSON.stringify({
      resourceType: 'Bundle',
      entry: [
        { resource: { resourceType: 'Basic', id: 'b', code: { text: 'EndUser' } } },
        { resource: { resourceType: 'Login' } },
      ],
    });
    expect(mayHoldProtectedFields(text)).toBe(true);
  });

  it('agrees with withoutProtectedFields: false only where stripping would change nothing', () => {
    const user = { resourceType: 'User', id: 'u', email: 'a@b.c', passwordHash: 'h', mfaSecret: 's' };
    const contained = { resourceType: 'Patient', id: 'p', contained: [user] };
    for (const value of [user, contained]) {
      expect(withoutProtectedFields(value)).not.toEqual(value);
      expect(mayHoldProtectedFields(JSON.stringify(value))).toBe(true);
    }
    const plain = { resourceType: 'Patient', id: 'p', name: [{ family: 'User' }] };
    expect(withoutProtectedFields(plain)).toBe(plain);
    // A quoted value equal to a type name is enough to take the careful path: it may be a type.
    expect(mayHoldProtectedFields(JSON.stringify(plain))).toBe(true);
  });
});
