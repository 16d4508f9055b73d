import { describe, expect, it } from 'vitest';
import { parseAllowedHosts } from '../../config/serverConfig';
import { hostPortOf, isInternalAddress } from './botFetch';

describe('bot fetch address rules', () => {
  it('treats loopback, private, link-local, metadata and reserved addresses as internal', () => {
    for (const address of [
      '127.0.0.1',
      '127.8.9.10',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fd00:ec2::254',
      'fe80::1',
      'fc00::5',
      '::ffff:127.0.0.1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::10.0.0.1',
      'not-an-address',
    ]) {
      expect(isInternalAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect(isInternalAddress(address), address).toBe(false);
    }
  });

  it('names a URL by host:port as BOT_FETCH_ALLOWED_HOSTS does', () => {
    expect(hostPortOf(new URL('https://My.DoseSpot.com/x'))).toBe('my.dosespot.com:443');
    expect(hostPortOf(new URL('http://127.0.0.1:8123/'))).toBe('127.0.0.1:8123');
    expect(hostPortOf(new URL('http://[::1]:81/'))).toBe('::1:81');
    expect(parseAllowedHosts(' 127.0.0.1:8123, LocalHost:80,[::1]:81 ')).toEqual([
      '127.0.0.1:8123',
      'localhost:80',
      '::1:81',
    ]);
    expect(parseAllowedHosts(undefined)).toEqual([]);
    expect(() => parseAllowedHosts('127.0.0.1')).toThrow('BOT_FETCH_ALLOWED_HOSTS entries must be host:port');
    expect(() => parseAllowedHosts('http://x:80')).toThrow('must be host:port');
  });
});
