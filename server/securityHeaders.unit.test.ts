import { describe, expect, it } from 'vitest';
import { appContentSecurityPolicy } from './securityHeaders';

describe('appContentSecurityPolicy', () => {
  it('allows websockets to BASE_URL’s host (wss for https) and extra frame origins when configured', () => {
    const policy = appContentSecurityPolicy('https://emr.example.org/', ['http://127.0.0.1:9100']);
    expect(policy).toContain("connect-src 'self' wss://emr.example.org;");
    expect(policy).toContain(
      'frame-src https://my.staging.dosespot.com https://my.dosespot.com http://127.0.0.1:9100;',
    );
    expect(appContentSecurityPolicy('http://localhost:8103/')).toContain(
      'frame-src https://my.staging.dosespot.com https://my.dosespot.com;',
    );
  });
});
