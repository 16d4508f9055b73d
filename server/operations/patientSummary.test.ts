import { beforeAll, describe, expect, inject, it } from 'vitest';
import { baseUrl, http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import {
  postJson,
  registerProjectOwner,
  registerUser,
  signInWithScope,
  uniqueEmail,
} from '../../tests/integration/accounts';
import { clinicWithPatientRegistration } from '../../tests/integration/patientAccounts';
import { exchangeCode, pkcePair } from '../../tests/integration/signIn';
import { narrativeActiveContent } from '../../data-provider/validation/narrativeXhtml';
import { inviteMember } from '../admin/projectMembers.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */
type Answer = { status: number; body: any };

const loinc = 'http://loinc.org';
const codes = {
  allergies: '48765-2',
  medications: '10160-0',
  problems: '11450-4',
  immunizations: '11369-6',
  procedures: '47519-4',
  devices: '46264-8',
  results: '30954-2',
  vitalSigns: '8716-3',
  pastIllness: '11348-0',
  planOfCare: '18776-5',
};
const required = [codes.allergies, codes.medications, codes.problems];
const scriptName = '<script>alert(1)</script> & "Quoted" <img src=x onerror=alert(2)>';

const composition = (bundle: any) => bundle.entry[0].resource;
const sectionCodes = (bundle: any): string[] => composition(bundle).section.map((s: any) => s.code.coding[0].code);
const section = (bundle: any, code: string) =>
  composition(bundle).section.find((s: any) => s.code.coding[0].code === code);
const entryKeys = (bundle: any): string[] =>
  bundle.entry.map((entry: any) => `${entry.resource.resourceType}/${entry.resource.id}`);
const sectionRefs = (bundle: any, code: string): string[] =>
  (section(bundle, code)?.entry ?? []).map((entry: any) => entry.reference);

describe('Patient/$summary (International Patient Summary)', () => {
  let owner: Awaited<ReturnType<typeof clinicWithPatientRegistration>>;
  let other: Awaited<ReturnType<typeof registerProjectOwner>>;
  let token: string;
  let patientUser: { email: string; password: string; token: string; patientId: string };
  const ids: Record<string, string> = {};
  const fhirBase = () => `${baseUrl()}fhir/R4/`;
  const get = (path: string, as = token): Promise<Answer> => http('GET', `fhir/R4/${path}`, { token: as });
  const post = (path: string, body: unknown, as = token): Promise<Answer> =>
    http('POST', `fhir/R4/${path}`, { token: as, body });
  const create = async (body: Record<string, unknown>, as = token): Promise<string> => {
    const answer = await post(body.resourceType as string, body, as);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.id as string;
  };
  const summaryOf = async (patientId: string, as = token): Promise<any> => {
    const answer = await get(`Patient/${patientId}/$summary`, as);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  };

  /** A patient who registers in the owner's project, with the credentials a scoped sign-in needs. */
  async function registerPatientUser() {
    const email = uniqueEmail('summary-patient');
    const password = 'summary patient password 1';
    const { verifier, challenge } = pkcePair();
    const login = await registerUser(email, password, challenge);
    const registered = await postJson('auth/newpatient', { login, projectId: owner.projectId });
    const tokens = await exchangeCode(baseUrl(), registered.body.code, verifier);
    return { email, password, token: tokens.access_token as string, patientId: tokens.profile.reference.split('/')[1] };
  }

  beforeAll(async () => {
    owner = await clinicWithPatientRegistration('Summary Clinic');
    other = await registerProjectOwner('Summary Elsewhere');
    token = owner.tokens.access_token;
    patientUser = await registerPatientUser();
    const p1 = patientUser.patientId;
    ids.p1 = p1;
    const subject = { reference: `Patient/${p1}` };
    const patientRef = { patient: subject };
    const category = (code: string) => [
      { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code }] },
    ];
    const clinical = (code: string) => ({
      coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code }],
    });

    ids.allergy = await create({
      resourceType: 'AllergyIntolerance',
      ...patientRef,
      code: { text: 'Peanut' },
      clinicalStatus: {
        coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active' }],
      },
      criticality: 'high',
      onsetDateTime: '2019-05-04',
      reaction: [{ manifestation: [{ text: 'Hives' }] }],
    });
    ids.medication = await create({ resourceType: 'Medication', code: { text: 'Amoxicillin 500 mg' } });
    ids.request = await create({
      resourceType: 'MedicationRequest',
      status: 'active',
      intent: 'order',
      subject,
      medicationReference: { reference: `Medication/${ids.medication}` },
      dosageInstruction: [{ text: 'One capsule three times a day' }],
      authoredOn: '2024-02-01',
    });
    ids.oldStatement = await create({
      resourceType: 'MedicationStatement',
      status: 'completed',
      subject,
      medicationCodeableConcept: { text: 'FinishedCourseDrug' },
    });
    ids.asthma = await create({
      resourceType: 'Condition',
      subject,
      code: { text: 'Asthma' },
      clinicalStatus: clinical('active'),
      onsetDateTime: '2010-03-02',
    });
    ids.scripted = await create({ resourceType: 'Condition', subject, code: { text: scriptName } });
    ids.chickenpox = await create({
      resourceType: 'Condition',
      subject,
      code: { text: 'Chickenpox' },
      clinicalStatus: clinical('resolved'),
      abatementDateTime: '1995-06-01',
    });
    ids.mistake = await create({
      resourceType: 'Condition',
      subject,
      code: { text: 'MistakenCondition' },
      clinicalStatus: clinical('active'),
      verificationStatus: {
        coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-ver-status', code: 'entered-in-error' }],
      },
    });
    ids.immunization = await create({
      resourceType: 'Immunization',
      status: 'completed',
      ...patientRef,
      vaccineCode: { text: 'Influenza vaccine' },
      occurrenceDateTime: '2023-10-15',
    });
    const vital = (code: string, display: string, value: number, unit: string, at: string) => ({
      resourceType: 'Observation',
      status: 'final',
      category: category('vital-signs'),
      code: { coding: [{ system: loinc, code, display }] },
      subject,
      effectiveDateTime: at,
      valueQuantity: { value, unit },
    });
    ids.oldPulse = await create(vital('8867-4', 'Heart rate', 71, '/min', '2024-01-01T09:00:00Z'));
    ids.newPulse = await create(vital('8867-4', 'Heart rate', 84, '/min', '2024-03-01T09:00:00Z'));
    ids.weight = await create(vital('29463-7', 'Body weight', 72.5, 'kg', '2024-02-01T09:00:00Z'));
    ids.lab = await create({
      resourceType: 'Observation',
      status: 'final',
      category: category('laboratory'),
      code: { text: 'Potassium' },
      subject,
      effectiveDateTime: '2024-02-20',
      valueQuantity: { value: 4.1, unit: 'mmol/L' },
    });
    ids.report = await create({
      resourceType: 'DiagnosticReport',
      status: 'final',
      code: { text: 'Lipid panel' },
      subject,
      effectiveDateTime: '2024-02-21',
      conclusion: 'Within normal limits',
    });
    ids.procedure = await create({
      resourceType: 'Procedure',
      status: 'completed',
      subject,
      code: { text: 'Appendectomy' },
      performedDateTime: '2001-07-09',
    });
    ids.device = await create({
      resourceType: 'Device',
      deviceName: [{ name: 'Insulin pump', type: 'user-friendly-name' }],
      patient: subject,
    });
    ids.deviceUse = await create({
      resourceType: 'DeviceUseStatement',
      status: 'active',
      subject,
      device: { reference: `Device/${ids.device}` },
      timingDateTime: '2022-01-10',
    });
    ids.carePlan = await create({
      resourceType: 'CarePlan',
      status: 'active',
      intent: 'plan',
      subject,
      title: 'Asthma action plan',
    });

    ids.bystander = await create({
      resourceType: 'Patient',
      name: [{ family: 'Bystander' }],
      identifier: [{ system: 'urn:summary:mrn', value: 'B-1' }],
    });
    ids.twinA = await create({
      resourceType: 'Patient',
      name: [{ family: 'TwinA' }],
      identifier: [{ system: 'urn:summary:mrn', value: 'DUP' }],
    });
    ids.twinB = await create({
      resourceType: 'Patient',
      name: [{ family: 'TwinB' }],
      identifier: [{ system: 'urn:summary:mrn', value: 'DUP' }],
    });
    ids.empty = await create({ resourceType: 'Patient', name: [{ family: 'Empty' }] });
    ids.bystanderCondition = await create({
      resourceType: 'Condition',
      subject: { reference: `Patient/${ids.bystander}` },
      code: { text: 'BystanderCondition' },
    });
    // Filed by the super admin in its own project, about a patient of the clinic.
    ids.foreign = await create(
      { resourceType: 'Condition', subject, code: { text: 'ForeignProjectCondition' } },
      inject('adminToken'),
    );
  });

  it('answers a document Bundle: the Composition first, the patient, then what the sections list', async () => {
    const bundle = await summaryOf(ids.p1);
    expect(bundle.resourceType).toBe('Bundle');
    expect(bundle.type).toBe('document');
    expect(bundle.identifier.system).toBe('urn:ietf:rfc:3986');
    expect(bundle.identifier.value).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(Math.abs(Date.parse(bundle.timestamp) - Date.now())).toBeLessThan(60_000);

    const doc = composition(bundle);
    expect(doc.resourceType).toBe('Composition');
    expect(doc.status).toBe('final');
    expect(doc.type.coding).toEqual([{ system: loinc, code: '60591-5', display: 'Patient summary Document' }]);
    expect(doc.subject.reference).toBe(`Patient/${ids.p1}`);
    expect(doc.title).toBe('International Patient Summary');
    expect(doc.confidentiality).toBe('N');
    expect(doc.date).toBe(bundle.timestamp);
    // The owner's profile (a Practitioner) authors it and is in the document.
    expect(doc.author).toEqual([expect.objectContaining({ reference: owner.tokens.profile.reference })]);
    expect(entryKeys(bundle)[1]).toBe(`Patient/${ids.p1}`);
    expect(entryKeys(bundle)).toContain(owner.tokens.profile.reference);

    expect(sectionCodes(bundle)).toEqual([
      codes.allergies,
      codes.medications,
      codes.problems,
      codes.immunizations,
      codes.procedures,
      codes.devices,
      codes.results,
      codes.vitalSigns,
      codes.pastIllness,
      codes.planOfCare,
    ]);
    for (const s of doc.section) {
      expect(s.code.coding[0].system).toBe(loinc);
      expect(s.title).toEqual(expect.any(String));
      expect(s.text.status).toBe('generated');
      expect(s.text.div.startsWith('<div xmlns="http://www.w3.org/1999/xhtml">')).toBe(true);
      // The server's own narrative rule (FHIR txt-1) accepts every one.
      expect(narrativeActiveContent(s.text.div)).toBeUndefined();
      expect(s.emptyReason).toBeUndefined();
    }

    // Every entry's fullUrl is this server's URL of the resource, once; every reference resolves.
    const fullUrls = bundle.entry.map((entry: any) => entry.fullUrl);
    expect(new Set(fullUrls).size).toBe(fullUrls.length);
    for (const entry of bundle.entry) {
      expect(entry.fullUrl).toBe(`${fhirBase()}${entry.resource.resourceType}/${entry.resource.id}`);
    }
    const references = [
      doc.subject.reference,
      ...doc.author.map((a: any) => a.reference),
      ...doc.section.flatMap((s: any) => s.entry.map((e: any) => e.reference)),
    ];
    for (const reference of references) expect(fullUrls).toContain(`${fhirBase()}${reference}`);
    // What a listed entry points to is in the document too.
    expect(entryKeys(bundle)).toEqual(expect.arrayContaining([`Medication/${ids.medication}`, `Device/${ids.device}`]));
  });

  it("passes the server's own validation of a Bundle and of its Composition (base R4), full and empty", async () => {
    for (const patientId of [ids.p1, ids.empty]) {
      const bundle = await summaryOf(patientId);
      for (const candidate of [bundle, composition(bundle)]) {
        const answer = await post(`${candidate.resourceType}/$validate`, candidate);
        expect(answer.status).toBe(200);
        const errors = answer.body.issue.filter(
          (issue: any) => issue.severity === 'error' || issue.severity === 'fatal',
        );
        expect(errors, JSON.stringify(errors)).toEqual([]);
      }
    }
  });

  it('lists what each section is for, and leaves out what a summary does not carry', async () => {
    const bundle = await summaryOf(ids.p1);
    expect(sectionRefs(bundle, codes.allergies)).toEqual([`AllergyIntolerance/${ids.allergy}`]);
    expect(sectionRefs(bundle, codes.medications)).toEqual([`MedicationRequest/${ids.request}`]);
    expect(sectionRefs(bundle, codes.problems).sort()).toEqual(
      [`Condition/${ids.asthma}`, `Condition/${ids.scripted}`].sort(),
    );
    expect(sectionRefs(bundle, codes.pastIllness)).toEqual([`Condition/${ids.chickenpox}`]);
    expect(sectionRefs(bundle, codes.immunizations)).toEqual([`Immunization/${ids.immunization}`]);
    expect(sectionRefs(bundle, codes.procedures)).toEqual([`Procedure/${ids.procedure}`]);
    expect(sectionRefs(bundle, codes.devices)).toEqual([`DeviceUseStatement/${ids.deviceUse}`]);
    expect(sectionRefs(bundle, codes.results)).toEqual([`DiagnosticReport/${ids.report}`, `Observation/${ids.lab}`]);
    expect(sectionRefs(bundle, codes.planOfCare)).toEqual([`CarePlan/${ids.carePlan}`]);
    const keys = entryKeys(bundle);
    for (const absent of [ids.mistake, ids.oldStatement, ids.bystanderCondition, ids.bystander]) {
      expect(keys.some((key) => key.endsWith(`/${absent}`))).toBe(false);
    }

    // The narratives say it as a person reads it: names, values and dates.
    const allergies = section(bundle, codes.allergies).text.div;
    expect(allergies).toContain('<td>Peanut</td>');
    expect(allergies).toContain('<td>Hives</td>');
    expect(allergies).toContain('<td>May 4, 2019</td>');
    const medications = section(bundle, codes.medications).text.div;
    expect(medications).toContain('<td>Amoxicillin 500 mg</td>');
    expect(medications).toContain('<td>One capsule three times a day</td>');
    expect(medications).not.toContain('FinishedCourseDrug');
    expect(section(bundle, codes.pastIllness).text.div).toContain('<td>Jun 1, 1995</td>');
    expect(section(bundle, codes.devices).text.div).toContain('<td>Insulin pump</td>');
    expect(section(bundle, codes.results).text.div).toContain('<td>4.1 mmol/L</td>');
    expect(section(bundle, codes.problems).text.div).not.toContain('MistakenCondition');
  });

  it("holds a report's results as far as the caller may read them, and shows their values", async () => {
    const reported = await create({ resourceType: 'Patient', name: [{ family: 'Reported' }] });
    const subject = { reference: `Patient/${reported}` };
    const ldl = await create({
      resourceType: 'Observation',
      status: 'final',
      code: { text: 'LDL cholesterol' },
      subject,
      effectiveDateTime: '2024-05-01',
      valueQuantity: { value: 3.1, unit: 'mmol/L' },
    });
    const hdl = await create({
      resourceType: 'Observation',
      status: 'final',
      category: [
        { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] },
      ],
      code: { text: 'HDL cholesterol' },
      subject,
      effectiveDateTime: '2024-05-01',
      valueQuantity: { value: 1.2, unit: 'mmol/L' },
    });
    const report = await create({
      resourceType: 'DiagnosticReport',
      status: 'final',
      code: { text: 'Lipid panel' },
      subject,
      effectiveDateTime: '2024-05-01',
      result: [ldl, hdl].map((id) => ({ reference: `Observation/${id}` })),
    });

    const bundle = await summaryOf(reported);
    expect(sectionRefs(bundle, codes.results)).toEqual([`DiagnosticReport/${report}`, `Observation/${hdl}`]);
    expect(entryKeys(bundle)).toContain(`Observation/${ldl}`);
    const narrative = section(bundle, codes.results).text.div;
    expect(narrative).toContain('<td>LDL cholesterol 3.1 mmol/L; HDL cholesterol 1.2 mmol/L</td>');

    // A member who may read laboratory Observations only: the LDL result (no category) stays out.
    const member = await inviteMember(token, owner.projectId, {
      policy: {
        resource: [
          { resourceType: 'Patient' },
          { resourceType: 'DiagnosticReport' },
          { resourceType: 'Observation', criteria: 'Observation?category=laboratory' },
        ],
      },
    });
    const limited = await summaryOf(reported, member.token);
    expect(entryKeys(limited)).not.toContain(`Observation/${ldl}`);
    expect(JSON.stringify(limited)).not.toContain('LDL');
    expect(section(limited, codes.results).text.div).toContain('<td>HDL cholesterol 1.2 mmol/L; 1 more</td>');
  });

  it('shows the latest vital sign of each measurement', async () => {
    const bundle = await summaryOf(ids.p1);
    expect(sectionRefs(bundle, codes.vitalSigns)).toEqual([`Observation/${ids.newPulse}`, `Observation/${ids.weight}`]);
    expect(entryKeys(bundle)).not.toContain(`Observation/${ids.oldPulse}`);
    const div = section(bundle, codes.vitalSigns).text.div;
    expect(div).toContain('<td>84 /min</td>');
    expect(div).toContain('<td>Mar 1, 2024</td>');
    expect(div).not.toContain('71 /min');
  });

  it('escapes every stored value in the narrative', async () => {
    const div = section(await summaryOf(ids.p1), codes.problems).text.div as string;
    expect(div).toContain(
      '<td>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Quoted&quot; &lt;img src=x onerror=alert(2)&gt;</td>',
    );
    expect(div).not.toContain('<script');
    expect(div).not.toContain('<img');
    expect(narrativeActiveContent(div)).toBeUndefined();
  });

  it('keeps the three required sections when the record is empty, each with an emptyReason', async () => {
    const bundle = await summaryOf(ids.empty);
    expect(sectionCodes(bundle)).toEqual(required);
    for (const s of composition(bundle).section) {
      expect(s.entry).toBeUndefined();
      expect(s.emptyReason.coding).toEqual([
        {
          system: 'http://terminology.hl7.org/CodeSystem/list-empty-reason',
          code: 'unavailable',
          display: 'Unavailable',
        },
      ]);
      expect(s.text.div).toContain('There is no information about');
      expect(narrativeActiveContent(s.text.div)).toBeUndefined();
    }
    expect(entryKeys(bundle)).toEqual([
      `Composition/${composition(bundle).id}`,
      `Patient/${ids.empty}`,
      owner.tokens.profile.reference,
    ]);
  });

  describe('the patient by identifier', () => {
    it('finds the one patient with the identifier, by GET and by POST', async () => {
      const byGet = await get('Patient/$summary?identifier=urn:summary:mrn|B-1');
      expect(byGet.status, JSON.stringify(byGet.body)).toBe(200);
      expect(composition(byGet.body).subject.reference).toBe(`Patient/${ids.bystander}`);
      const byPost = await post('Patient/$summary', {
        resourceType: 'Parameters',
        parameter: [{ name: 'identifier', valueString: 'urn:summary:mrn|B-1' }],
      });
      expect(byPost.status).toBe(200);
      expect(composition(byPost.body).subject.reference).toBe(`Patient/${ids.bystander}`);
      const asIdentifier = await post('Patient/$summary', {
        resourceType: 'Parameters',
        parameter: [{ name: 'identifier', valueIdentifier: { system: 'urn:summary:mrn', value: 'B-1' } }],
      });
      expect(composition(asIdentifier.body).subject.reference).toBe(`Patient/${ids.bystander}`);
      expect(sectionRefs(byGet.body, codes.problems)).toEqual([`Condition/${ids.bystanderCondition}`]);
    });

    it('answers 404 when no patient has it and 400 when several do', async () => {
      const none = await get('Patient/$summary?identifier=urn:summary:mrn|NOBODY');
      expect(none.status).toBe(404);
      expect(none.body.resourceType).toBe('OperationOutcome');
      const several = await get('Patient/$summary?identifier=urn:summary:mrn|DUP');
      expect(several.status).toBe(400);
      expect(several.body.resourceType).toBe('OperationOutcome');
      expect(issueText(several.body)).toContain('Several patients');
      expect(issueExpressions(several.body)).toEqual(['identifier']);
      // Another project's patient is nobody's here.
      expect((await get('Patient/$summary?identifier=urn:summary:mrn|B-1', other.tokens.access_token)).status).toBe(
        404,
      );
    });

    it('refuses a request without a patient, with two, or with parameters it does not know', async () => {
      const missing = await get('Patient/$summary');
      expect(missing.status).toBe(400);
      expect(issueExpressions(missing.body)).toEqual(['identifier']);
      expect((await get(`Patient/${ids.p1}/$summary?identifier=urn:summary:mrn|B-1`)).status).toBe(400);
      const unknown = await get(`Patient/${ids.p1}/$summary?_count=5`);
      expect(unknown.status).toBe(400);
      expect(issueExpressions(unknown.body)).toEqual(['_count']);
      const profile = await get(`Patient/${ids.p1}/$summary?profile=http://example.org/StructureDefinition/other`);
      expect(profile.status).toBe(400);
      expect(issueExpressions(profile.body)).toEqual(['profile']);
      const ips = await get(
        `Patient/${ids.p1}/$summary?profile=http://hl7.org/fhir/uv/ips/StructureDefinition/Bundle-uv-ips`,
      );
      expect(ips.status).toBe(200);
      const posted = await post(`Patient/${ids.p1}/$summary`, { resourceType: 'Parameters', parameter: [] });
      expect(posted.status).toBe(200);
      expect(composition(posted.body).subject.reference).toBe(`Patient/${ids.p1}`);
      expect((await post(`Patient/${ids.p1}/$summary`, { resourceType: 'Patient' })).status).toBe(400);
    });
  });

  describe('attackers', () => {
    it('a patient gets their own summary, and for another patient exactly what a read of that patient gets', async () => {
      const own = await summaryOf(ids.p1, patientUser.token);
      expect(composition(own).subject.reference).toBe(`Patient/${ids.p1}`);
      expect(sectionRefs(own, codes.problems).length).toBe(2);
      // A patient does not author the document.
      expect(composition(own).author).toEqual([{ display: 'Hearth EMR' }]);

      const read = await get(`Patient/${ids.bystander}`, patientUser.token);
      expect([403, 404]).toContain(read.status);
      const summary = await get(`Patient/${ids.bystander}/$summary`, patientUser.token);
      expect(summary.status).toBe(read.status);
      expect(summary.body.resourceType).toBe('OperationOutcome');
      expect(JSON.stringify(summary.body)).not.toContain('BystanderCondition');
      const byIdentifier = await get('Patient/$summary?identifier=urn:summary:mrn|B-1', patientUser.token);
      expect(byIdentifier.status).toBe(404);
    });

    it("a patient's report pointing at another patient's result does not bring that result to the patient", async () => {
      const bystanderResult = await create({
        resourceType: 'Observation',
        status: 'final',
        code: { text: 'BystanderResult' },
        subject: { reference: `Patient/${ids.bystander}` },
        valueString: 'bystander value',
      });
      const report = await create({
        resourceType: 'DiagnosticReport',
        status: 'final',
        code: { text: 'Crafted report' },
        subject: { reference: `Patient/${ids.p1}` },
        effectiveDateTime: '2024-06-01',
        result: [{ reference: `Observation/${bystanderResult}` }],
      });
      try {
        const own = await summaryOf(ids.p1, patientUser.token);
        expect(sectionRefs(own, codes.results)).toContain(`DiagnosticReport/${report}`);
        expect(entryKeys(own)).not.toContain(`Observation/${bystanderResult}`);
        expect(JSON.stringify(own)).not.toContain('BystanderResult');
        expect(JSON.stringify(own)).not.toContain('bystander value');
        // The clinician, who may read it, gets it: the patient's answer is narrowed, not the document broken.
        expect(entryKeys(await summaryOf(ids.p1))).toContain(`Observation/${bystanderResult}`);
      } finally {
        expect((await http('DELETE', `fhir/R4/DiagnosticReport/${report}`, { token })).status).toBe(200);
      }
    });

    it('another project gets 404, as for a read; a caller without a token 401', async () => {
      expect((await get(`Patient/${ids.p1}`, other.tokens.access_token)).status).toBe(404);
      expect((await get(`Patient/${ids.p1}/$summary`, other.tokens.access_token)).status).toBe(404);
      expect((await post(`Patient/${ids.p1}/$summary`, undefined, other.tokens.access_token)).status).toBe(404);
      expect((await http('GET', `fhir/R4/Patient/${ids.p1}/$summary`, { token: null })).status).toBe(401);
    });

    it('a member whose policy has no Observation gets no results or vital signs, in entries or narrative', async () => {
      const member = await inviteMember(token, owner.projectId, {
        policy: {
          resource: [
            'Patient',
            'AllergyIntolerance',
            'Condition',
            'MedicationRequest',
            'MedicationStatement',
            'Medication',
            'Immunization',
            'Procedure',
            'Device',
            'DeviceUseStatement',
            'CarePlan',
            'DiagnosticReport',
          ].map((resourceType) => ({ resourceType })),
        },
      });
      const bundle = await summaryOf(ids.p1, member.token);
      expect(entryKeys(bundle).some((key) => key.startsWith('Observation/'))).toBe(false);
      expect(sectionCodes(bundle)).not.toContain(codes.vitalSigns);
      expect(sectionRefs(bundle, codes.results)).toEqual([`DiagnosticReport/${ids.report}`]);
      const text = JSON.stringify(bundle);
      for (const hidden of ['Potassium', 'Heart rate', 'Body weight', '84 /min', ids.lab, ids.newPulse]) {
        expect(text).not.toContain(hidden);
      }
      // Its profile, a Practitioner it may not read, is not in the document: the server authors it.
      expect(composition(bundle).author).toEqual([{ display: 'Hearth EMR' }]);
      expect(sectionRefs(bundle, codes.problems).length).toBe(2);
    });

    it('a member whose policy criteria hide some Observations gets only the others', async () => {
      const member = await inviteMember(token, owner.projectId, {
        policy: {
          resource: [
            { resourceType: 'Patient' },
            { resourceType: 'Observation', criteria: 'Observation?category=laboratory' },
          ],
        },
      });
      const bundle = await summaryOf(ids.p1, member.token);
      expect(sectionRefs(bundle, codes.results)).toEqual([`Observation/${ids.lab}`]);
      expect(sectionCodes(bundle)).not.toContain(codes.vitalSigns);
      const text = JSON.stringify(bundle);
      for (const hidden of ['Heart rate', 'Body weight', 'Asthma', 'Peanut', ids.newPulse, ids.weight]) {
        expect(text).not.toContain(hidden);
      }
      // The required sections it may not search are there, marked as withheld rather than as empty.
      for (const code of required) {
        expect(section(bundle, code).emptyReason.coding[0].code).toBe('withheld');
      }
    });

    it('a field the policy hides is in neither the entries nor the narrative', async () => {
      const member = await inviteMember(token, owner.projectId, {
        policy: { resource: [{ resourceType: 'Patient' }, { resourceType: 'Condition', hiddenFields: ['code'] }] },
      });
      const bundle = await summaryOf(ids.p1, member.token);
      expect(sectionRefs(bundle, codes.problems).length).toBe(2);
      expect(sectionRefs(bundle, codes.pastIllness)).toEqual([`Condition/${ids.chickenpox}`]);
      const text = JSON.stringify(bundle);
      for (const hidden of ['Asthma', 'Chickenpox', 'alert(1)']) expect(text).not.toContain(hidden);
    });

    it("another project's Condition about the patient never appears, not even to a super admin", async () => {
      for (const as of [token, inject('adminToken')]) {
        const bundle = await summaryOf(ids.p1, as);
        expect(entryKeys(bundle)).not.toContain(`Condition/${ids.foreign}`);
        expect(JSON.stringify(bundle)).not.toContain('ForeignProjectCondition');
        expect(sectionRefs(bundle, codes.problems).sort()).toEqual(
          [`Condition/${ids.asthma}`, `Condition/${ids.scripted}`].sort(),
        );
      }
    });

    it('a SMART app scoped to patient/Patient.rs gets the patient and nothing else', async () => {
      const app = await signInWithScope(
        patientUser.email,
        patientUser.password,
        'openid patient/Patient.rs',
        owner.projectId,
      );
      const bundle = await summaryOf(ids.p1, app.access_token);
      expect(entryKeys(bundle)).toEqual([`Composition/${composition(bundle).id}`, `Patient/${ids.p1}`]);
      expect(sectionCodes(bundle)).toEqual(required);
      for (const s of composition(bundle).section) expect(s.emptyReason.coding[0].code).toBe('withheld');
      const text = JSON.stringify(bundle);
      for (const hidden of ['Asthma', 'Peanut', 'Amoxicillin', 'Potassium', 'Heart rate', ids.asthma]) {
        expect(text).not.toContain(hidden);
      }
      // And the scope's patient is the only one: another patient's summary is what its read is.
      const read = await get(`Patient/${ids.bystander}`, app.access_token);
      expect((await get(`Patient/${ids.bystander}/$summary`, app.access_token)).status).toBe(read.status);
    });
  });

  it('is listed in the CapabilityStatement', async () => {
    const metadata = await get('metadata');
    const patient = metadata.body.rest[0].resource.find((r: any) => r.type === 'Patient');
    expect(patient.operation).toContainEqual({
      name: 'summary',
      definition: 'http://hl7.org/fhir/uv/ips/OperationDefinition/summary',
    });
  });
});
