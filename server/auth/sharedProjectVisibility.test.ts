/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */
import { describe, expect, it } from 'vitest';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { http } from '../../tests/integration/fhirClient';

/**
 * Issue 19: a project admin listing /Project saw the server's internal "Shared definitions" project.
 * The attack replayed: a project admin searches and reads Project (and the shared project's other
 * administration records) and must find only their own project; definitions stay readable.
 */
describe('the shared definitions project', () => {
  it('is not listed or readable as a Project by a project admin; its definitions stay readable', async () => {
    const owner = await registerProjectOwner();
    const token = owner.tokens.access_token;

    const projects = await http<any>('GET', 'fhir/R4/Project?_count=100', { token });
    expect(projects.status).toBe(200);
    const names = (projects.body.entry ?? []).map((entry: any) => entry.resource.name);
    expect(names).toEqual([owner.projectName]);
    expect(names).not.toContain('Shared definitions');

    // The super admin sees the shared project, so its id is known to the test (and to an attacker).
    const all = await http<any>('GET', 'fhir/R4/Project?name=Shared%20definitions');
    const shared = all.body.entry?.[0]?.resource;
    expect(shared?.name).toBe('Shared definitions');
    const read = await http<any>('GET', `fhir/R4/Project/${shared.id}`, { token });
    expect(read.status).toBe(404);
    const history = await http<any>('GET', `fhir/R4/Project/${shared.id}/_history`, { token });
    expect(history.status).toBe(404);

    // Definitions of the shared project are still every member's to read.
    const definition = await http<any>(
      'GET',
      'fhir/R4/StructureDefinition?url=http://hl7.org/fhir/StructureDefinition/Patient',
      {
        token,
      },
    );
    expect(definition.status).toBe(200);
    expect(definition.body.entry?.length).toBe(1);
  });
});
