import { describe, expect, it } from 'vitest';
import type { CarePlan } from '@medplum/fhirtypes';
import { carePlanTitle } from './carePlanTitle';

const plan = (fields: Partial<CarePlan>): CarePlan => ({
  resourceType: 'CarePlan',
  status: 'active',
  intent: 'order',
  subject: { reference: 'Patient/p1' },
  ...fields,
});

describe('care plan title', () => {
  it('is the title when there is one', () => {
    expect(carePlanTitle(plan({ title: 'Diabetes follow-up', category: [{ text: 'Diabetes' }] }))).toBe(
      'Diabetes follow-up',
    );
  });

  it('is the category that says what the plan is for, past US Core’s "assess-plan" (Synthea plans have no title)', () => {
    expect(
      carePlanTitle(
        plan({
          category: [
            { coding: [{ system: 'http://hl7.org/fhir/us/core/CodeSystem/careplan-category', code: 'assess-plan' }] },
            {
              coding: [
                { system: 'http://snomed.info/sct', code: '698360004', display: 'Diabetes self management plan' },
              ],
              text: 'Diabetes self management plan',
            },
          ],
        }),
      ),
    ).toBe('Diabetes self management plan');
    expect(
      carePlanTitle(
        plan({
          category: [
            {
              coding: [{ system: 'http://snomed.info/sct', code: '872781000000100', display: 'Musculoskeletal care' }],
            },
          ],
        }),
      ),
    ).toBe('Musculoskeletal care');
  });

  it('else the description, else the first planned activity', () => {
    expect(carePlanTitle(plan({ description: 'Plan after the fall' }))).toBe('Plan after the fall');
    expect(
      carePlanTitle(
        plan({
          activity: [{ detail: { status: 'in-progress', code: { text: 'Joint mobility exercises' } } }],
        }),
      ),
    ).toBe('Joint mobility exercises');
    expect(carePlanTitle(plan({}))).toBe('');
  });
});
