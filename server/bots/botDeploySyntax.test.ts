import { beforeAll, describe, expect, it } from 'vitest';
import { http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/** QA: code with a syntax error deployed, and failed only when run ("SyntaxError: expecting '}'", no line). */
describe('POST Bot/{id}/$deploy refuses code that does not parse', () => {
  let token: string;
  let botId: string;
  const deploy = (code: string, as = token) =>
    http<any>('POST', `fhir/R4/Bot/${botId}/$deploy`, { token: as, body: { code, filename: 'index.js' } });

  beforeAll(async () => {
    token = (await registerProjectOwner('Deploy Syntax Clinic')).tokens.access_token;
    const created = await http<any>('POST', 'fhir/R4/Bot', {
      token,
      body: { resourceType: 'Bot', name: 'syntax target', code: 'exports.handler = async () => "old";' },
    });
    expect(created.status).toBe(201);
    botId = created.body.id;
  });

  it('answers 400 naming code, with the message, line and column, and keeps the deployed code', async () => {
    const before = (await http<any>('GET', `fhir/R4/Bot/${botId}`, { token })).body;
    const answer = await deploy(
      'exports.handler = async (medplum, event) => {\n  const n = event.input.n;\n  return n +;\n};\n',
    );
    expect(answer.status).toBe(400);
    expect(answer.body.resourceType).toBe('OperationOutcome');
    expect(issueExpressions(answer.body)).toEqual(['code']);
    expect(issueText(answer.body)).toBe(
      "The bot's code does not parse: SyntaxError: unexpected token in expression: ';' (line 3, column 13)",
    );
    const open = await deploy('exports.handler = async () => {\n  if (true) {\n    return 1;\n');
    expect(open.status).toBe(400);
    expect(issueText(open.body)).toMatch(/\(line 4, column 1, at the end of the code\)$/);
    const after = (await http<any>('GET', `fhir/R4/Bot/${botId}`, { token })).body;
    expect(after.meta.versionId).toBe(before.meta.versionId);
    expect(after.code).toBe(before.code);
  });

  it('deploys code that parses, and it runs', async () => {
    const answer = await deploy('export async function handler(medplum, event) {\n  return { n: event.input.n };\n}\n');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const run = await http<any>('POST', `fhir/R4/Bot/${botId}/$execute`, { token, body: { n: 3 } });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(run.body).toEqual({ n: 3 });
  });

  it("tells another project's admin nothing about the code: 404 before any parse", async () => {
    const intruder = (await registerProjectOwner('Deploy Syntax Intruder')).tokens.access_token;
    expect((await deploy('exports.handler = (', intruder)).status).toBe(404);
  });
});
