import { describe, expect, it } from 'vitest';
import type { LaunchAvailability } from '../../data-provider/client';
import { launchAccountChoice } from './launchAccountChoice';

const account = (name: string, launch?: LaunchAvailability) => ({ name, ...(launch ? { launch } : {}) });
const usable: LaunchAvailability = { usable: true };
const refused = (reason: 'startedBySomeoneElse' | 'expired' | 'used' | 'unknown'): LaunchAvailability => ({
  usable: false,
  reason,
});

describe('launchAccountChoice', () => {
  it('offers the accounts that can continue into the launch, and names why each other one is not offered', () => {
    const alice = account('alice', usable);
    const ben = account('ben', refused('startedBySomeoneElse'));
    const dan = account('dan', refused('unknown'));
    expect(launchAccountChoice([ben, alice, dan])).toEqual({
      offered: [alice],
      notOffered: [
        { account: ben, reason: 'startedBySomeoneElse' },
        { account: dan, reason: 'unknown' },
      ],
    });
  });

  it("says the launch's own state when nobody can continue: expired or used before anything else", () => {
    const ben = account('ben', refused('startedBySomeoneElse'));
    expect(launchAccountChoice([ben, account('alice', refused('expired'))]).problem).toBe('expired');
    expect(launchAccountChoice([account('alice', refused('used')), ben]).problem).toBe('used');
    expect(launchAccountChoice([ben, account('dan', refused('unknown'))]).problem).toBe('startedElsewhere');
    expect(launchAccountChoice([account('dan', refused('unknown')), account('eve')]).problem).toBe('unknown');
  });

  it('decides nothing without accounts: the page asks for credentials', () => {
    expect(launchAccountChoice([])).toEqual({ offered: [], notOffered: [] });
  });
});
