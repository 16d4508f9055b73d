import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { definitionsVersion } from '../definitions/definitionFiles';
import { structureAjvOptions, structureSchema, structureSchemaRevision } from './structureSchema';

/**
 * The structure schema and ajv options each revision was recorded with. Validator code kept in the
 * database is reused while definitions version, ajv version and revision match (validatorStore.ts),
 * so a change here without a new revision would keep running validators of the old schema.
 */
const recorded = [
  {
    revision: 1,
    definitionsVersion: '4.5.2',
    sha256: 'c6063388ab4a4dfd5d68ee610309ffdb4531ac7537d84bad7f965cca45bc50ff',
  },
];

describe('structure schema', () => {
  it('changes only with a new structureSchemaRevision', () => {
    const sha256 = createHash('sha256')
      .update(JSON.stringify({ options: structureAjvOptions, schema: structureSchema() }))
      .digest('hex');
    const entry = recorded.find(
      (r) => r.revision === structureSchemaRevision && r.definitionsVersion === definitionsVersion,
    );
    // On a failure: bump structureSchemaRevision and record the new hash (after a definitions
    // update alone, recording the hash for the new definitions version is enough).
    expect({ revision: structureSchemaRevision, definitionsVersion, sha256 }).toEqual(entry);
  });

  it('keeps no descriptions but keeps properties named description', () => {
    const { definitions } = structureSchema();
    expect(JSON.stringify(definitions)).not.toMatch(/"description":"/);
    expect(definitions.Patient.description).toBeUndefined();
    expect(definitions.Group.properties?.name).toBeDefined();
    expect(definitions.Questionnaire.properties?.description).toEqual({ $ref: '#/definitions/markdown' });
  });

  it('dispatches contained resources by resourceType', () => {
    const { definitions } = structureSchema();
    const branches = definitions.ResourceList.allOf as { then: { $ref: string } }[];
    expect(branches.map((b) => b.then.$ref)).toContain('#/definitions/Patient');
    expect(definitions.ResourceList.properties?.resourceType.enum).toContain('Login');
  });
});
