import { describe, expect, it } from 'vitest';
import { isAppActingForPerson } from './emailQuota';

describe('isAppActingForPerson', () => {
  it('is a login issued to a ClientApplication for someone else, not the web app nor a client as itself', () => {
    expect(isAppActingForPerson({ resourceType: 'Login', user: { reference: 'User/u' } } as never)).toBe(false);
    expect(
      isAppActingForPerson({
        resourceType: 'Login',
        user: { reference: 'User/u' },
        client: { reference: 'ClientApplication/c' },
      } as never),
    ).toBe(true);
    expect(
      isAppActingForPerson({
        resourceType: 'Login',
        user: { reference: 'ClientApplication/c' },
        client: { reference: 'ClientApplication/c' },
      } as never),
    ).toBe(false);
  });
});
