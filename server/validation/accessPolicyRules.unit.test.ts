import { describe, expect, it } from 'vitest';
import { closestResourceType, validateAccessPolicy } from './accessPolicyRules';

describe('validateAccessPolicy', () => {
  it('accepts R4 types, Medplum types and "*", and leaves the shape to the structure check', () => {
    expect(
      validateAccessPolicy({
        resourceType: 'AccessPolicy',
        resource: [
          { resourceType: 'Patient' },
          { resourceType: 'Bot' },
          { resourceType: 'UserConfiguration' },
          { resourceType: '*' },
        ],
      }),
    ).toEqual([]);
    expect(validateAccessPolicy({ resourceType: 'AccessPolicy', resource: 'x' })).toEqual([]);
    expect(validateAccessPolicy({ resourceType: 'AccessPolicy', resource: [null, 3, { resourceType: 7 }] })).toEqual(
      [],
    );
  });

  it('names each unknown type with the closest known one, when close', () => {
    const issues = validateAccessPolicy({
      resourceType: 'AccessPolicy',
      resource: [{ resourceType: 'Communicaton' }, { resourceType: 'patient' }, { resourceType: 'Nonsense' }],
    });
    expect(issues.map((issue) => [issue.expression?.[0], issue.details?.text])).toEqual([
      [
        'AccessPolicy.resource[0].resourceType',
        'Unknown resource type "Communicaton" (did you mean Communication?): an access policy entry must name a resource type or "*"',
      ],
      [
        'AccessPolicy.resource[1].resourceType',
        'Unknown resource type "patient" (did you mean Patient?): an access policy entry must name a resource type or "*"',
      ],
      [
        'AccessPolicy.resource[2].resourceType',
        'Unknown resource type "Nonsense": an access policy entry must name a resource type or "*"',
      ],
    ]);
    expect(closestResourceType('Obsevation')).toBe('Observation');
    expect(closestResourceType('x'.repeat(10_000))).toBeUndefined();
  });
});
