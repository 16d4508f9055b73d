import { benchFetch, benchHeaders } from './benchFetch';
import { runImport } from '../../server/import/importRunner';
import type { ImportRequest } from '../../server/import/importPlan';
import { generatePatientBundle, randomSource } from './clinicGenerator';
import { summarize, type LatencySummary } from './latencyStats';

export interface QueryMeasurement {
  group: 'chart' | 'summary' | 'other';
  name: string;
  example: string;
  latency: LatencySummary;
  /** Average number of matches (or total), to read latencies against. */
  results: number;
}

export interface SearchBenchResult {
  resources: number;
  patients: number;
  fillSeconds: number;
  queries: QueryMeasurement[];
}

const samples = Number(process.env.BENCH_SEARCH_SAMPLES ?? 50);

interface Shape {
  group: QueryMeasurement['group'];
  name: string;
  query(patientId: string, random: () => number): string;
}

const today = new Date().toISOString().slice(0, 10);

/** The query shapes of app-spec.md §2.3 (chart tabs) and §7 (patient summary), and the common searches. */
const shapes: Shape[] = [
  ...[
    ['Tasks', 'Task'],
    ['Meds', 'MedicationRequest'],
    ['Labs', 'ServiceRequest', '&category=108252007'],
    ['Devices', 'Device'],
    ['Reports', 'DiagnosticReport'],
    ['Documents', 'DocumentReference'],
    ['Appointments', 'Appointment'],
    ['Care Plans', 'CarePlan'],
  ].map(([name, type, extra = '']): Shape => ({
    group: 'chart',
    name: `chart tab: ${name}`,
    query: (id) => `${type}?patient=Patient/${id}${extra}&_sort=-_lastUpdated&_offset=0&_count=20`,
  })),
  {
    group: 'summary',
    name: 'summary: allergies',
    query: (id) => `AllergyIntolerance?patient=Patient/${id}&_count=100&_sort=-_lastUpdated`,
  },
  {
    group: 'summary',
    name: 'summary: conditions',
    query: (id) => `Condition?patient=Patient/${id}&_count=100&_sort=-_lastUpdated`,
  },
  {
    group: 'summary',
    name: 'summary: medications',
    query: (id) => `MedicationRequest?subject=Patient/${id}&_count=100&_sort=-_lastUpdated`,
  },
  {
    group: 'summary',
    name: 'summary: observations',
    query: (id) => `Observation?subject=Patient/${id}&_count=100&_sort=-_lastUpdated`,
  },
  {
    group: 'summary',
    name: 'summary: upcoming appointments',
    query: (id) =>
      `Appointment?patient=Patient/${id}&date=ge${today}&status=proposed,pending,booked&_count=100&_sort=-_lastUpdated`,
  },
  {
    group: 'summary',
    name: 'summary: past encounters',
    query: (id) => `Encounter?subject=Patient/${id}&date=le${today}&status=finished&_count=100&_sort=-_lastUpdated`,
  },
  {
    group: 'other',
    name: 'name search (prefix)',
    query: (_id, r) => `Patient?name=${['Ann', 'Gar', 'Ngu', 'Schm', 'Tan'][Math.floor(r() * 5)]}&_count=20`,
  },
  {
    group: 'other',
    name: 'name search :contains',
    query: (_id, r) => `Patient?name:contains=${['nna', 'arci', 'guy', 'midt', 'naka'][Math.floor(r() * 5)]}&_count=20`,
  },
  {
    group: 'other',
    name: 'token search (code)',
    query: (_id, r) =>
      `Observation?code=http://loinc.org|${['8302-2', '29463-7', '8867-4'][Math.floor(r() * 3)]}&_count=20`,
  },
  {
    group: 'other',
    name: 'identifier lookup',
    query: (_id, r) => `Patient?identifier=urn:bench:mrn|MRN${String(Math.floor(r() * 1000)).padStart(8, '0')}`,
  },
  {
    group: 'other',
    name: 'date range (one month)',
    query: (_id, r) =>
      `Encounter?date=ge2020-${String(1 + Math.floor(r() * 12)).padStart(2, '0')}-01&date=lt2020-${String(1 + Math.floor(r() * 12)).padStart(2, '0')}-28&_count=20`,
  },
  {
    group: 'other',
    name: 'list page deep (_offset 5k–10k, -_lastUpdated)',
    query: (_id, r) => `Observation?_sort=-_lastUpdated&_count=20&_offset=${5000 + Math.floor(r() * 5000)}`,
  },
  {
    group: 'other',
    name: '_total=accurate (code)',
    query: () => 'Observation?code=http://loinc.org|8302-2&_count=20&_total=accurate',
  },
  {
    group: 'other',
    name: '_total=estimate (code)',
    query: () => 'Observation?code=http://loinc.org|8302-2&_count=20&_total=estimate',
  },
];

/** Fills the server with generated clinics up to `targetResources`, then times every query shape. */
export async function benchSearch(
  baseUrl: string,
  targetResources: number,
  log: (line: string) => void,
): Promise<SearchBenchResult> {
  const fhirBase = `${baseUrl}fhir/R4/`;
  const { patients, imported, fillSeconds } = await fillClinics(fhirBase, targetResources, log);
  return measureQueries(fhirBase, patients, imported, fillSeconds, log);
}

/** Posts generated patients (one transaction each, four at a time) until about `targetResources` exist. */
export async function fillClinics(
  fhirBase: string,
  targetResources: number,
  log: (line: string) => void,
): Promise<{ patients: number; imported: number; fillSeconds: number }> {
  const perPatient = generatePatientBundle(0).entry?.length ?? 97;
  const patients = Math.ceil(targetResources / perPatient);
  log(`Generating ${patients} patients (~${patients * perPatient} resources)…`);
  const started = performance.now();
  const chunk = 200;
  let imported = 0;
  for (let first = 0; first < patients; first += chunk) {
    const requests: ImportRequest[] = [];
    for (let i = first; i < Math.min(patients, first + chunk); i++) {
      requests.push({ file: 'generated', bundle: generatePatientBundle(i), origins: [] });
    }
    const result = await runImport(requests, { fhirBase, concurrency: 4, headers: benchHeaders() });
    if (result.failed > 0) throw new Error(`Generated data failed to import: ${JSON.stringify(result.problems[0])}`);
    imported += result.imported;
    if (Math.floor((first / patients) * 10) !== Math.floor(((first + chunk) / patients) * 10)) {
      log(`  ${imported} resources, ${Math.round(imported / ((performance.now() - started) / 1000))}/s`);
    }
  }
  return { patients, imported, fillSeconds: (performance.now() - started) / 1000 };
}

async function measureQueries(
  fhirBase: string,
  patients: number,
  imported: number,
  fillSeconds: number,
  log: (line: string) => void,
): Promise<SearchBenchResult> {
  const random = randomSource(42);
  const patientIds: string[] = [];
  while (patientIds.length < samples) {
    const index = Math.floor(random() * patients);
    const bundle = (await (
      await benchFetch(`${fhirBase}Patient?identifier=urn:bench:mrn|MRN${String(index).padStart(8, '0')}`)
    ).json()) as { entry?: { resource: { id: string } }[] };
    if (bundle.entry?.[0]) patientIds.push(bundle.entry[0].resource.id);
  }

  const queries: QueryMeasurement[] = [];
  for (const shape of shapes) {
    // Warm-up: the first requests of a shape pay for plan caching and cold pages.
    for (let i = 0; i < 3; i++)
      await (await benchFetch(`${fhirBase}${shape.query(patientIds[i], random)}`)).arrayBuffer();
    const latencies: number[] = [];
    let results = 0;
    let example = '';
    const shapeStarted = performance.now();
    for (let i = 0; i < samples; i++) {
      const path = shape.query(patientIds[i % patientIds.length], random);
      example ||= path.replace(patientIds[0], '{id}');
      const t0 = performance.now();
      const response = await benchFetch(`${fhirBase}${path}`);
      const body = (await response.json()) as { total?: number; entry?: unknown[] };
      latencies.push(performance.now() - t0);
      if (!response.ok) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(body)}`);
      results += body.total ?? body.entry?.length ?? 0;
    }
    const latency = summarize(latencies, (performance.now() - shapeStarted) / 1000);
    queries.push({ group: shape.group, name: shape.name, example, latency, results: results / samples });
    log(
      `  ${shape.name}: p50 ${latency.p50.toFixed(1)} ms, p95 ${latency.p95.toFixed(1)} ms, p99 ${latency.p99.toFixed(1)} ms (${(results / samples).toFixed(1)} results)`,
    );
  }
  return { resources: imported, patients, fillSeconds, queries };
}
