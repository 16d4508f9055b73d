import { describe, expect, it } from 'vitest';
import { OperationOutcomeError, badRequest } from '../../data-provider/outcomes';
import { fieldErrors } from './fieldErrors';

describe('fieldErrors', () => {
  it('puts an issue under the field its expression names', () => {
    const error = new OperationOutcomeError(badRequest('Incorrect password', 'oldPassword'), 400);
    expect(fieldErrors(error, ['oldPassword', 'newPassword'])).toEqual({
      byField: { oldPassword: 'Incorrect password' },
    });
  });

  it('keeps issues about other fields, or none, as the general message', () => {
    const error = new OperationOutcomeError(badRequest('Session expired', 'login'), 400);
    expect(fieldErrors(error, ['oldPassword'])).toEqual({ byField: {}, general: 'Session expired' });
    expect(fieldErrors(new Error('Network down'), ['oldPassword']).general).toBe('Network down');
  });
});
