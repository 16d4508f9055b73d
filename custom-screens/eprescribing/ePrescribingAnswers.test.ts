import { describe, expect, it } from 'vitest';
import { iframeUrlOf, missingSecretsOf, notificationCountsBot, sumNotificationCounts } from './ePrescribingAnswers';

describe('e-prescribing answers', () => {
  it('sums the four counts into the badge', () => {
    expect(
      sumNotificationCounts({
        configured: true,
        PendingPrescriptionsCount: 2,
        PendingRxChangeCount: 1,
        RefillRequestsCount: 3,
        TransactionErrorsCount: 4,
        TotalNotificationCount: 100,
      }),
    ).toBe(10);
    expect(sumNotificationCounts({ PendingPrescriptionsCount: 'x', RefillRequestsCount: -2 })).toBe(0);
    expect(sumNotificationCounts(undefined)).toBe(0);
  });

  it('reads what a bot says is missing', () => {
    expect(missingSecretsOf({ configured: false, missing: ['DOSESPOT_CLINIC_ID', 3] })).toEqual(['DOSESPOT_CLINIC_ID']);
    expect(missingSecretsOf({ configured: false })).toEqual([]);
    expect(missingSecretsOf({ configured: true, url: 'https://x' })).toBeUndefined();
    expect(missingSecretsOf(null)).toBeUndefined();
  });

  it('frames only http(s) addresses', () => {
    expect(iframeUrlOf({ url: 'https://my.staging.dosespot.com/LoginSingleSignOn.aspx?a=1' })).toBe(
      'https://my.staging.dosespot.com/LoginSingleSignOn.aspx?a=1',
    );
    expect(iframeUrlOf({ url: 'javascript:alert(1)' })).toBeUndefined();
    expect(iframeUrlOf({ url: 'not a url' })).toBeUndefined();
    expect(iframeUrlOf({})).toBeUndefined();
  });

  it('calls the bots by their Medplum identifiers', () => {
    expect(notificationCountsBot).toEqual({
      system: 'https://www.medplum.com/bots',
      value: 'dosespot-notification-counts-bot',
    });
  });
});
