import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  Bundle,
  DiagnosticReport,
  MedicationRequest,
  Patient,
  Resource,
  ServiceRequest,
} from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedTestDatabase } from '../../tests/setup/embeddedTestDatabase';
import { PAST_MEDICATIONS_LISTED_UP_TO } from '../../config/clinical/medicationStatus';
import { medicationListOf, otherOrdersNote } from '../../custom-screens/chart/summary/rules/medicationGroups';
import { inlineTextOf } from '../../data-provider/formatting';
import { processBundle } from '../fhir/bundleProcessor';
import { Repository } from '../fhir/repository';
import { parseSearchRequest } from '../search/searchRequest';
import { definitionSearchParameters } from '../serverRuntime';
import { systemAuthor } from '../definitions/loadDefinitions';
import { seedDemoClinicalData, type DemoClinicalSummary } from './demoClinicalData';
import { ECHO_CONCLUSION, ECHO_REPORT_TEXT } from './demoHypertensionHistory';

/**
 * The demo clinic's clinical data as a fresh start seeds it, on the Synthea patients it ships with:
 * what the chart's sidebar and report view are given to show.
 */

const fixturesDir = join(import.meta.dirname, '../../tests/fixtures/synthea');
const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const DAY = 24 * 60 * 60 * 1000;
const now = new Date('2026-06-15T12:00:00Z');
const projectId = 'demo-clinical-data';
const database = embeddedTestDatabase('demo-clinical-data');
const dataDir = mkdtempSync(join(tmpdir(), 'hearth-demo-clinical-binaries-'));
const registry = definitionSearchParameters();
let repository: Repository;
let summary: DemoClinicalSummary;
let aliceId: string;

const search = <T extends Resource>(type: string, query: Record<string, string>) =>
  repository.transaction(
    async (session) =>
      (await session.search(parseSearchRequest(type, { _count: '200', ...query }, session.registry))).resources as T[],
  );
const authorOf = (resource: Resource) => (resource.meta as { author?: { reference?: string } } | undefined)?.author;
const patientsNamed = async (family: string) =>
  (await search<Patient>('Patient', { family })).filter((p) => p.meta?.project === projectId);

beforeAll(async () => {
  repository = new Repository(database(), registry);
  const ctx = { projectId, author: systemAuthor };
  await repository.transaction((session) =>
    session.create(ctx, { resourceType: 'Project', name: 'Demo Clinic' } as Resource, { id: projectId, fresh: true }),
  );
  for (const file of readdirSync(fixturesDir).filter((name) => name.endsWith('.json'))) {
    const bundle = JSON.parse(readFileSync(join(fixturesDir, file), 'utf8')) as Bundle;
    await processBundle({ repository, registry, ctx, fhirBase: 'http://localhost/fhir/R4/' }, bundle);
  }
  aliceId = (
    await repository.transaction((session) =>
      session.create(ctx, {
        resourceType: 'Practitioner',
        name: [{ prefix: ['Dr.'], given: ['Alice'], family: 'Carter' }],
        telecom: [{ system: 'email', use: 'work', value: 'alice@demo.hearth.example' }],
      } as Resource),
    )
  ).id as string;
  summary = await repository.transaction((session) => seedDemoClinicalData(session, { projectId, dataDir, now }));
}, 180_000);

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the demo clinic on a fresh start', { timeout: 60_000 }, () => {
  it("tells the medication history on the patient with the longest-standing hypertension, by the chart's own rule", async () => {
    // Lemuel Hodkiewicz: hypertension since 2007 in his imported record (Geoffrey Abbott's is from 2011).
    const [lemuel] = await patientsNamed('Hodkiewicz');
    expect(summary.historyPatientId).toBe(lemuel.id);

    const orders = await search<MedicationRequest>('MedicationRequest', { subject: `Patient/${lemuel.id}` });
    const list = medicationListOf(orders);
    const name = (order: MedicationRequest) => order.medicationCodeableConcept?.text ?? '';
    // Folded in the sidebar: "Show 7 past medications".
    expect(list.foldPast).toBe(true);
    expect(list.past.length).toBeGreaterThan(PAST_MEDICATIONS_LISTED_UP_TO);
    // Seven different drugs, one row each (the cough syrup's row includes its 2011 order).
    expect(list.past.map((group) => name(group.order).split(' ')[0]).sort()).toEqual([
      'Acetaminophen', // 325 MG tablets, for a back strain
      'Acetaminophen', // 21.7 MG/ML / dextromethorphan / doxylamine, the cough syrup, for bronchitis
      'Amlodipine',
      'Hydrochlorothiazide', // 6.25 MG, imported
      'Loratadine',
      'Naproxen',
      'Ventolin', // HFA 90 mcg/actuation inhaler (albuterol)
    ]);
    // What he takes now: the lisinopril the history leads to (its renewals as earlier orders), and
    // his imported hydrochlorothiazide.
    expect(list.current.map((group) => [name(group.order), otherOrdersNote(group)])).toEqual([
      ['lisinopril 10 MG Oral Tablet', '2 earlier orders'],
      ['Hydrochlorothiazide 25 MG', ''],
    ]);
    // Several orders of one drug over time: amlodipine renewed twice, the last one stopped and why.
    const amlodipine = list.past.find((group) => name(group.order).startsWith('Amlodipine'));
    expect(amlodipine?.order.status).toBe('stopped');
    expect(amlodipine?.order.statusReason?.text).toMatch(/ankle swelling/i);
    expect(otherOrdersNote(amlodipine!)).toBe('2 earlier orders');
    expect(amlodipine?.others.map((order) => order.status)).toEqual(['completed', 'completed']);

    // Every order is coded in RxNorm; Alice's are written as her, dated before today, with a reason.
    for (const order of orders) {
      expect(order.medicationCodeableConcept?.coding?.[0]?.system).toBe(RXNORM);
    }
    const alices = orders.filter((order) => order.requester?.reference === `Practitioner/${aliceId}`);
    expect(alices).toHaveLength(12);
    for (const order of alices) {
      expect(authorOf(order)?.reference).toBe(`Practitioner/${aliceId}`);
      expect(Date.parse(order.authoredOn ?? '')).toBeLessThan(now.getTime());
      if (order.status !== 'active') expect(order.reasonCode ?? order.reasonReference).toBeDefined();
    }
  });

  it('gives no other patient a folded medication list', async () => {
    for (const patient of (await search<Patient>('Patient', {})).filter((p) => p.meta?.project === projectId)) {
      if (patient.id === summary.historyPatientId) continue;
      const orders = await search<MedicationRequest>('MedicationRequest', { subject: `Patient/${patient.id}` });
      expect(medicationListOf(orders).foldPast, patient.name?.[0]?.family).toBe(false);
    }
  });

  it('answers an echocardiogram order of Alice with a final report carrying its text as a presented form', async () => {
    const [report, ...more] = await search<DiagnosticReport>('DiagnosticReport', { code: 'http://loinc.org|34552-0' });
    expect(more).toEqual([]);
    expect(report).toMatchObject({
      status: 'final',
      subject: { reference: `Patient/${summary.historyPatientId}` },
      conclusion: ECHO_CONCLUSION,
      category: expect.arrayContaining([{ coding: [expect.objectContaining({ code: 'LP29708-2' })] }]),
    });
    expect(authorOf(report)?.reference).toBe(`Practitioner/${aliceId}`);
    // Issued ten days before the seed's "now", like the rest of the demo dated relative to it.
    expect(now.getTime() - Date.parse(report.issued ?? '')).toBeGreaterThan(9 * DAY);
    expect(now.getTime() - Date.parse(report.issued ?? '')).toBeLessThan(11 * DAY);
    // The report view decodes it (text/plain, base64) to the report as written.
    const [form] = report.presentedForm ?? [];
    expect(form.contentType).toBe('text/plain');
    expect(inlineTextOf(form)).toBe(ECHO_REPORT_TEXT);
    expect(ECHO_REPORT_TEXT).toContain('CONCLUSION');
    expect(form.size).toBe(Buffer.byteLength(ECHO_REPORT_TEXT));

    const orderId = report.basedOn?.[0]?.reference?.replace('ServiceRequest/', '') ?? '';
    const [order] = await search<ServiceRequest>('ServiceRequest', { _id: orderId });
    expect(order).toMatchObject({ status: 'completed', requester: { reference: `Practitioner/${aliceId}` } });
    expect(Date.parse(order.authoredOn ?? '')).toBeLessThan(Date.parse(report.issued ?? ''));
  });

  it('counts what it wrote', async () => {
    const rows = await database().query<{ count: string }>(
      "SELECT count(*) AS count FROM resources WHERE project_id = $1 AND NOT deleted AND last_updated >= (SELECT last_updated FROM resources WHERE resource_type = 'Practitioner' AND id = $2)",
      [projectId, aliceId],
    );
    // Alice's Practitioner is the one resource written before the seed in that window.
    expect(summary.resources).toBe(Number(rows[0].count) - 1);
  });
});
