import { describe, expect, it } from 'vitest';
import { connectionConfig, serverSessionSettings, statementTimeoutSettings } from './sessionSettings';

describe('connectionConfig', () => {
  it('gives the settings as startup options and leaves a URL without options as it is', () => {
    const url = 'postgres://hearth:secret@db.example:5433/hearth?sslmode=require';
    expect(
      connectionConfig(url, { max_parallel_workers_per_gather: '0', plan_cache_mode: 'force_generic_plan' }),
    ).toEqual({
      connectionString: url,
      options: '-c max_parallel_workers_per_gather=0 -c plan_cache_mode=force_generic_plan',
    });
  });

  it("moves a URL's own options after the server's, so they still apply and win for a setting both name", () => {
    const config = connectionConfig(
      'postgres://hearth@db.example/hearth?sslmode=require&options=-c%20statement_timeout%3D5000%20-c%20max_parallel_workers_per_gather%3D2',
      serverSessionSettings,
    );
    expect(config.options).toBe(
      '-c max_parallel_workers_per_gather=0 -c statement_timeout=5000 -c max_parallel_workers_per_gather=2',
    );
    // node-postgres would let the URL's options replace the config's: they are gone from it, the rest stays.
    const rest = new URL(config.connectionString);
    expect(rest.searchParams.has('options')).toBe(false);
    expect(rest.searchParams.get('sslmode')).toBe('require');
    expect(`${rest.username}@${rest.host}${rest.pathname}`).toBe('hearth@db.example/hearth');
  });

  it('passes a connection string that is not a URL on unchanged', () => {
    expect(connectionConfig('host=/var/run/postgresql dbname=hearth', serverSessionSettings)).toEqual({
      connectionString: 'host=/var/run/postgresql dbname=hearth',
      options: '-c max_parallel_workers_per_gather=0',
    });
  });
});

describe('statementTimeoutSettings', () => {
  it('sets statement_timeout in milliseconds, and nothing for 0 (the database keeps its own)', () => {
    expect(statementTimeoutSettings(30_000)).toEqual({ statement_timeout: '30000' });
    expect(statementTimeoutSettings(0)).toEqual({});
  });

  it("leaves a URL's own statement_timeout the last word", () => {
    const config = connectionConfig('postgres://db.example/hearth?options=-c%20statement_timeout%3D0', {
      ...serverSessionSettings,
      ...statementTimeoutSettings(30_000),
    });
    expect(config.options).toBe(
      '-c max_parallel_workers_per_gather=0 -c statement_timeout=30000 -c statement_timeout=0',
    );
  });
});
