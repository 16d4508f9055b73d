import { describe, expect, it } from 'vitest';
import { jsonShapeProblem } from './jsonShape';

describe('jsonShapeProblem', () => {
  it('accepts an object', () => {
    expect(jsonShapeProblem({ resourceType: 'Patient', id: 'p1' })).toBeUndefined();
    expect(jsonShapeProblem({})).toBeUndefined();
  });

  it('names a list, null and scalars, which parse but are no resource', () => {
    expect(jsonShapeProblem([])).toBe('The JSON is a list ([…]); it must be one resource, an object ({…}).');
    expect(jsonShapeProblem([{ resourceType: 'Patient' }])).toMatch(/^The JSON is a list/);
    expect(jsonShapeProblem(null)).toBe('The JSON is null; it must be one resource, an object ({…}).');
    expect(jsonShapeProblem(42)).toBe('The JSON is a number; it must be one resource, an object ({…}).');
    expect(jsonShapeProblem('Patient')).toMatch(/^The JSON is a string;/);
    expect(jsonShapeProblem(true)).toMatch(/^The JSON is a boolean;/);
  });
});
