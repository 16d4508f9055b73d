import { describe, expect, it } from 'vitest';
import { getDisplayString } from './getDisplayString';

describe('getDisplayString', () => {
  it('names people by their first human name', () => {
    const names = [{ given: ['Ada'], family: 'King' }, { given: ['Augusta'] }];
    expect(getDisplayString({ resourceType: 'Patient', id: '1', name: names })).toBe('Ada King');
    expect(getDisplayString({ resourceType: 'Practitioner', id: '1', name: names })).toBe('Ada King');
    expect(getDisplayString({ resourceType: 'RelatedPerson', id: '1', patient: {}, name: names })).toBe('Ada King');
  });
  it('names a device by its first device name', () => {
    expect(
      getDisplayString({
        resourceType: 'Device',
        id: 'd',
        deviceName: [
          { name: 'Infusion pump', type: 'user-friendly-name' },
          { name: 'X', type: 'model-name' },
        ],
      }),
    ).toBe('Infusion pump');
  });
  it('names a medication request by the text of its medication concept', () => {
    expect(
      getDisplayString({
        resourceType: 'MedicationRequest',
        id: 'm',
        status: 'active',
        intent: 'order',
        subject: { reference: 'Patient/1' },
        medicationCodeableConcept: { text: 'Amoxicillin 500 mg', coding: [{ display: 'Other' }] },
      }),
    ).toBe('Amoxicillin 500 mg');
  });
  it('names a subscription by its criteria and a user by its email', () => {
    expect(
      getDisplayString({
        resourceType: 'Subscription',
        id: 's',
        status: 'active',
        reason: 'r',
        criteria: 'Communication?recipient=Practitioner/1',
        channel: { type: 'websocket' },
      }),
    ).toBe('Communication?recipient=Practitioner/1');
    expect(
      getDisplayString({ resourceType: 'User', id: 'u', firstName: 'Ada', lastName: 'King', email: 'ada@example.com' }),
    ).toBe('ada@example.com');
  });
  it('falls back to the name string, then the code text, then Type/id', () => {
    expect(getDisplayString({ resourceType: 'Organization', id: 'o', name: 'Hearth Clinic' })).toBe('Hearth Clinic');
    expect(
      getDisplayString({
        resourceType: 'Observation',
        id: 'x',
        status: 'final',
        code: { text: 'Body weight', coding: [{ display: 'Weight' }] },
      }),
    ).toBe('Body weight');
    expect(getDisplayString({ resourceType: 'Observation', id: 'x', status: 'final', code: { coding: [] } })).toBe(
      'Observation/x',
    );
  });
  it('names a canonical resource without a name by its title, before Type/id', () => {
    const phq9 = { resourceType: 'Questionnaire', id: 'q', status: 'active', title: ' PHQ-9 ' } as const;
    expect(getDisplayString(phq9)).toBe('PHQ-9');
    expect(getDisplayString({ ...phq9, name: 'PHQ9' })).toBe('PHQ9');
    expect(getDisplayString({ ...phq9, title: ' ' })).toBe('Questionnaire/q');
    expect(getDisplayString({ resourceType: 'PlanDefinition', id: 'p', status: 'draft', title: 'Hypertension' })).toBe(
      'Hypertension',
    );
  });
  it('falls through when the specific rule finds nothing', () => {
    expect(getDisplayString({ resourceType: 'Patient', id: '7' })).toBe('Patient/7');
    expect(getDisplayString({ resourceType: 'Patient', id: '7', name: [{ given: [' '] }] })).toBe('Patient/7');
    expect(getDisplayString({ resourceType: 'Device', id: 'd', deviceName: [] })).toBe('Device/d');
  });
  it('ignores a blank name string', () => {
    expect(getDisplayString({ resourceType: 'Organization', id: 'o', name: ' ' })).toBe('Organization/o');
  });
  it('names an unsaved resource by its type', () => {
    expect(getDisplayString({ resourceType: 'Organization' })).toBe('Organization');
  });
});
