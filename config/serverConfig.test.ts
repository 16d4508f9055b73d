import { describe, expect, it } from 'vitest';
import { isLoopbackHost, loadServerConfig } from './serverConfig';

describe('loadServerConfig', () => {
  it('has the documented defaults', () => {
    const config = loadServerConfig({});
    expect(config).toMatchObject({
      port: 8103,
      host: '127.0.0.1',
      baseUrl: 'http://localhost:8103/',
      adminEmail: 'admin@example.com',
      seed: 'demo',
    });
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.adminPassword).toBeUndefined();
  });

  it('reads the environment and normalizes BASE_URL', () => {
    const config = loadServerConfig({
      PORT: '9000',
      BASE_URL: 'https://emr.example.org',
      SEED: 'none',
      DATABASE_URL: 'postgres://x/y',
    });
    expect(config).toMatchObject({
      port: 9000,
      baseUrl: 'https://emr.example.org/',
      seed: 'none',
      databaseUrl: 'postgres://x/y',
    });
  });

  it('refuses bad values with a clear message', () => {
    expect(() => loadServerConfig({ PORT: 'eighty' })).toThrow('PORT must be a port number');
    expect(() => loadServerConfig({ SEED: 'lots' })).toThrow('SEED must be "demo" or "none"');
    expect(() => loadServerConfig({ MAX_BODY_BYTES: '-1' })).toThrow('MAX_BODY_BYTES');
  });

  it('reads the RESOURCE_MAX_* limits of one resource, with the defaults of resourceLimits.ts', () => {
    expect(loadServerConfig({}).resourceLimits).toEqual({
      maxBytes: 4 * 1024 * 1024,
      maxElements: 100_000,
      maxStringLength: 1024 * 1024,
      maxIndexValues: 10_000,
      maxIndexText: 1024 * 1024,
    });
    const config = loadServerConfig({
      RESOURCE_MAX_BYTES: '1000',
      RESOURCE_MAX_ELEMENTS: '50',
      RESOURCE_MAX_STRING_LENGTH: '20',
      RESOURCE_MAX_INDEX_VALUES: '7',
      RESOURCE_MAX_INDEX_TEXT: '300',
    });
    expect(config.resourceLimits).toEqual({
      maxBytes: 1000,
      maxElements: 50,
      maxStringLength: 20,
      maxIndexValues: 7,
      maxIndexText: 300,
    });
    for (const name of [
      'RESOURCE_MAX_BYTES',
      'RESOURCE_MAX_ELEMENTS',
      'RESOURCE_MAX_STRING_LENGTH',
      'RESOURCE_MAX_INDEX_VALUES',
      'RESOURCE_MAX_INDEX_TEXT',
    ]) {
      for (const value of ['', '0', '-1', '1.5', 'lots']) {
        expect(() => loadServerConfig({ [name]: value })).toThrow(`${name} must be a positive whole number`);
      }
    }
  });

  it('reads DATABASE_STATEMENT_TIMEOUT_MS: 30 s by default, 0 for none, refusing anything but a whole number', () => {
    expect(loadServerConfig({}).databaseStatementTimeoutMs).toBe(30_000);
    expect(loadServerConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '5000' }).databaseStatementTimeoutMs).toBe(5000);
    expect(loadServerConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '0' }).databaseStatementTimeoutMs).toBe(0);
    // An empty value is a mistake, not "off": Number('') would have made it 0.
    for (const value of ['', ' ', '-1', '1.5', '30s', 'off', '2147483648']) {
      expect(() => loadServerConfig({ DATABASE_STATEMENT_TIMEOUT_MS: value })).toThrow(
        `DATABASE_STATEMENT_TIMEOUT_MS must be a whole number from 0 (off) to 2147483647, not "${value}"`,
      );
    }
  });
});

describe('isLoopbackHost', () => {
  it('accepts only loopback addresses', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['0.0.0.0', '192.168.1.2', '::', 'example.org']) expect(isLoopbackHost(host)).toBe(false);
  });

  it('reads the bot fetch allow-list and the e-mail limit', () => {
    expect(loadServerConfig({})).toMatchObject({ botFetchAllowedHosts: [], emailProjectHourlyLimit: 100 });
    expect(
      loadServerConfig({
        BOT_FETCH_ALLOWED_HOSTS: '127.0.0.1:8123, DoseSpot.test:443',
        EMAIL_PROJECT_HOURLY_LIMIT: '7',
      }),
    ).toMatchObject({ botFetchAllowedHosts: ['127.0.0.1:8123', 'dosespot.test:443'], emailProjectHourlyLimit: 7 });
    expect(() => loadServerConfig({ BOT_FETCH_ALLOWED_HOSTS: 'localhost' })).toThrow('must be host:port');
    expect(() => loadServerConfig({ EMAIL_PROJECT_HOURLY_LIMIT: '0' })).toThrow('EMAIL_PROJECT_HOURLY_LIMIT');
    expect(
      loadServerConfig({ APP_FRAME_ORIGINS: 'http://127.0.0.1:9100, https://rx.example' }).appFrameOrigins,
    ).toEqual(['http://127.0.0.1:9100', 'https://rx.example']);
    expect(() => loadServerConfig({ APP_FRAME_ORIGINS: 'https://rx.example/path' })).toThrow('APP_FRAME_ORIGINS');
    expect(() => loadServerConfig({ APP_FRAME_ORIGINS: 'javascript:alert(1)' })).toThrow('APP_FRAME_ORIGINS');
  });
});
