import type { ClientApplication } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { isRegisteredRedirectUri } from './clientRedirect';

describe('isRegisteredRedirectUri', () => {
  it('needs the exact registered address', () => {
    const client: ClientApplication = {
      resourceType: 'ClientApplication',
      redirectUri: 'https://app.example/cb',
      redirectUris: ['http://127.0.0.1:9/cb'],
    };
    expect(isRegisteredRedirectUri(client, 'https://app.example/cb')).toBe(true);
    expect(isRegisteredRedirectUri(client, 'http://127.0.0.1:9/cb')).toBe(true);
    expect(isRegisteredRedirectUri(client, 'https://app.example/cb2')).toBe(false);
    expect(isRegisteredRedirectUri(undefined, 'https://app.example/cb')).toBe(false);
  });

  it('refuses a script address a client saved before the scheme rule existed', () => {
    const legacy: ClientApplication = {
      resourceType: 'ClientApplication',
      redirectUri: 'javascript:alert(1)',
      redirectUris: ['data:text/html,x', 'http://app.example/cb'],
    };
    for (const address of ['javascript:alert(1)', 'data:text/html,x', 'http://app.example/cb'])
      expect(isRegisteredRedirectUri(legacy, address), address).toBe(false);
  });
});
