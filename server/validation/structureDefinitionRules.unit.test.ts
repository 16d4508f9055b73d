import { describe, expect, it } from 'vitest';
import { validateStructureDefinitionElements } from './structureDefinitionRules';

describe('validateStructureDefinitionElements', () => {
  it('refuses min > max (eld-2) and a max that is no cardinality (eld-3), in the differential and the snapshot', () => {
    const issues = validateStructureDefinitionElements({
      resourceType: 'StructureDefinition',
      differential: {
        element: [
          { id: 'Patient', path: 'Patient' },
          { id: 'Patient.name', path: 'Patient.name', min: 1, max: '*' },
          { id: 'Patient.gender', path: 'Patient.gender', min: 2, max: '1' },
          { path: 'Patient.link', max: '-1' },
        ],
      },
      snapshot: { element: [{ id: 'Patient.gender', path: 'Patient.gender', min: 1, max: '0' }, 'x'] },
    });
    expect(issues.map((issue) => [issue.expression?.[0], issue.details?.text])).toEqual([
      ['StructureDefinition.differential.element[2]', 'Patient.gender: min 2 is more than max 1 (eld-2: min <= max)'],
      ['StructureDefinition.differential.element[3].max', 'Patient.link: max "-1" is neither a number nor "*" (eld-3)'],
      ['StructureDefinition.snapshot.element[0]', 'Patient.gender: min 1 is more than max 0 (eld-2: min <= max)'],
    ]);
    expect(
      validateStructureDefinitionElements({ resourceType: 'StructureDefinition', differential: { element: 3 } }),
    ).toEqual([]);
  });
});
