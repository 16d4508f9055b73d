import { describe, expect, it } from 'vitest';
import { SchemaLoader } from '../../schema-engine';
import { recordedSource } from '../../schema-engine/test-support/recordedDefinitions';
import { missingInRows } from './requiredInRows';

const loader = new SchemaLoader(recordedSource());

describe('missingInRows (real R4 definitions)', { timeout: 30_000 }, () => {
  it("names the missing child of a required element's added row, even an empty one", async () => {
    const schema = await loader.loadType('Appointment');
    const issues = missingInRows({ resourceType: 'Appointment', status: 'proposed', participant: [{}] }, schema);
    expect(issues).toEqual([
      {
        severity: 'error',
        code: 'required',
        details: { text: 'Participant 1: Status is required' },
        expression: ['Appointment.participant[0].status'],
      },
    ]);
  });

  it('checks every row with content and accepts complete rows', async () => {
    const schema = await loader.loadType('Appointment');
    const draft = {
      resourceType: 'Appointment',
      participant: [{ status: 'accepted' }, { actor: { reference: 'Patient/1' } }, {}],
    };
    expect(missingInRows(draft, schema).map((issue) => issue.details?.text)).toEqual([
      'Participant 2: Status is required',
    ]);
  });

  it('drops an empty row of an optional element as before, and counts a value given by its extension', async () => {
    const schema = await loader.loadType('Patient');
    expect(missingInRows({ resourceType: 'Patient', communication: [{}] }, schema)).toEqual([]);
    expect(missingInRows({ resourceType: 'Patient', communication: [{ preferred: true }] }, schema)).toEqual([
      expect.objectContaining({
        details: { text: 'Communication 1: Language is required' },
        expression: ['Patient.communication[0].language'],
      }),
    ]);
    const appointment = await loader.loadType('Appointment');
    const absent = { extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason' }] };
    expect(missingInRows({ resourceType: 'Appointment', participant: [{ _status: absent }] }, appointment)).toEqual([]);
  });

  it('follows nested rows and content references, and skips what the policy keeps from the user', async () => {
    const schema = await loader.loadType('Questionnaire');
    const draft = {
      resourceType: 'Questionnaire',
      status: 'draft',
      item: [{ linkId: 'a', type: 'group', item: [{ text: 'x' }] }],
    };
    expect(missingInRows(draft, schema).map((issue) => [issue.details?.text, issue.expression?.[0]])).toEqual([
      ['Item 1 › Item 1: Link Id is required', 'Questionnaire.item[0].item[0].linkId'],
      ['Item 1 › Item 1: Type is required', 'Questionnaire.item[0].item[0].type'],
    ]);
    expect(missingInRows(draft, schema, ['item'])).toEqual([]);
  });
});
