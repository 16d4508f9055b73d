import { describe, expect, it } from 'vitest';
import { recordedDefinition } from '../test-support/recordedDefinitions';
import { buildLargestResourceSchema, LARGEST_BASE_RESOURCES } from './schemaBenchmark';

describe('benchmark hook', () => {
  it('builds the largest base resources and reports a time per build', () => {
    for (const type of LARGEST_BASE_RESOURCES) {
      const { schema, msPerBuild } = buildLargestResourceSchema(
        recordedDefinition(`http://hl7.org/fhir/StructureDefinition/${type}`),
        2,
      );
      expect(schema.type).toBe(type);
      expect(schema.elements.size).toBeGreaterThan(150);
      expect(msPerBuild).toBeGreaterThan(0);
    }
  });
});
