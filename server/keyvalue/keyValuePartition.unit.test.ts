import { describe, expect, it } from 'vitest';
import { defaultClientId } from '../auth/authEnvironment';
import { keyValuePartition } from './keyValuePartition';

describe('keyValuePartition', () => {
  it("keeps the web app's space as it was stored before partitions (the bare user reference)", () => {
    expect(keyValuePartition('User/u1', defaultClientId)).toBe('User/u1');
  });

  it('keeps a client signed in as itself in its own bare space, as before', () => {
    expect(keyValuePartition('ClientApplication/c1', 'c1')).toBe('ClientApplication/c1');
  });

  it('gives each app its own space per user, never equal to another app or the web app', () => {
    const a = keyValuePartition('User/u1', 'a');
    const b = keyValuePartition('User/u1', 'b');
    expect(a).toBe('User/u1|ClientApplication/a');
    expect(new Set([a, b, keyValuePartition('User/u1', defaultClientId), keyValuePartition('User/u2', 'a')]).size).toBe(
      4,
    );
  });
});
