import type { Bundle, BundleEntry, Resource } from '@medplum/fhirtypes';

/** A small deterministic PRNG (mulberry32): the same seed makes the same clinic. */
export function randomSource(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const givenNames = [
  'Ann',
  'Anna',
  'Bea',
  'Carlos',
  'Dana',
  'Elif',
  'Farah',
  'Gus',
  'Hana',
  'Ivan',
  'Jo',
  'Kemal',
  'Lena',
  'Mateo',
  'Nia',
  'Omar',
  'Pia',
  'Quinn',
  'Rosa',
  'Sven',
];
const familyNames = [
  'Smith',
  'Garcia',
  'Nguyen',
  'Okafor',
  'Schmidt',
  'Rossi',
  'Kowalski',
  'Haddad',
  'Tanaka',
  'Silva',
  'Novak',
  'Dubois',
  'Murphy',
  'Ivanova',
  'Larsen',
  'Costa',
];
const vitals = [
  { code: '8302-2', display: 'Body height', unit: 'cm', min: 150, max: 195 },
  { code: '29463-7', display: 'Body weight', unit: 'kg', min: 45, max: 120 },
  { code: '8867-4', display: 'Heart rate', unit: '/min', min: 50, max: 110 },
  { code: '8310-5', display: 'Body temperature', unit: 'Cel', min: 36, max: 39 },
  { code: '2339-0', display: 'Glucose', unit: 'mg/dL', min: 70, max: 180 },
];
const conditions = [
  '44054006|Diabetes mellitus type 2',
  '38341003|Hypertension',
  '195967001|Asthma',
  '35489007|Depression',
  '55822004|Hyperlipidemia',
];
const medications = [
  '860975|Metformin 500 MG',
  '314076|Lisinopril 10 MG',
  '617312|Atorvastatin 20 MG',
  '745679|Albuterol inhaler',
];
const taskStatuses = ['requested', 'accepted', 'in-progress', 'completed', 'cancelled'] as const;

/** One generated patient as a transaction Bundle of about 100 resources. */
export function generatePatientBundle(index: number, now = Date.UTC(2026, 10, 1)): Bundle {
  const random = randomSource(index + 1);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const between = (min: number, max: number) => min + random() * (max - min);
  const dayMs = 86_400_000;
  const pastDate = (maxDays: number) => new Date(now - Math.floor(between(1, maxDays)) * dayMs).toISOString();
  const entries: BundleEntry[] = [];
  const add = (resource: Resource) => {
    const fullUrl = `urn:uuid:${index}-${entries.length}`;
    entries.push({ fullUrl, resource, request: { method: 'POST', url: resource.resourceType } });
    return fullUrl;
  };
  const patient = add({
    resourceType: 'Patient',
    identifier: [{ system: 'urn:bench:mrn', value: `MRN${String(index).padStart(8, '0')}` }],
    name: [{ given: [pick(givenNames)], family: `${pick(familyNames)}${index % 97}` }],
    gender: pick(['female', 'male'] as const),
    birthDate: new Date(now - between(18, 90) * 365 * dayMs).toISOString().slice(0, 10),
  });
  const subject = { reference: patient };
  const encounters: string[] = [];
  for (let i = 0; i < 10; i++) {
    const start = pastDate(3650);
    encounters.push(
      add({
        resourceType: 'Encounter',
        status: 'finished',
        class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'AMB' },
        subject,
        period: { start, end: new Date(Date.parse(start) + 1_800_000).toISOString() },
      }),
    );
  }
  for (let i = 0; i < 50; i++) {
    const vital = vitals[i % vitals.length];
    add({
      resourceType: 'Observation',
      status: 'final',
      category: [
        { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }] },
      ],
      code: { coding: [{ system: 'http://loinc.org', code: vital.code, display: vital.display }], text: vital.display },
      subject,
      encounter: { reference: encounters[i % encounters.length] },
      effectiveDateTime: pastDate(3650),
      valueQuantity: {
        value: Math.round(between(vital.min, vital.max) * 10) / 10,
        unit: vital.unit,
        system: 'http://unitsofmeasure.org',
        code: vital.unit,
      },
    });
  }
  for (let i = 0; i < 8; i++) {
    const [code, display] = pick(conditions).split('|');
    add({
      resourceType: 'Condition',
      subject,
      code: { coding: [{ system: 'http://snomed.info/sct', code, display }], text: display },
      onsetDateTime: pastDate(3650),
    });
  }
  for (let i = 0; i < 6; i++) {
    const [code, display] = pick(medications).split('|');
    add({
      resourceType: 'MedicationRequest',
      status: pick(['active', 'completed', 'stopped'] as const),
      intent: 'order',
      subject,
      medicationCodeableConcept: {
        coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code, display }],
        text: display,
      },
      authoredOn: pastDate(3650),
    });
  }
  for (let i = 0; i < 5; i++) {
    add({
      resourceType: 'Task',
      status: pick(taskStatuses),
      intent: 'order',
      for: subject,
      code: { text: pick(['Call patient', 'Review labs', 'Refill request', 'Schedule follow-up']) },
      authoredOn: pastDate(365),
    });
    add({
      resourceType: 'Communication',
      status: 'completed',
      subject,
      sent: pastDate(365),
      payload: [{ contentString: `Message ${i} for patient ${index}` }],
    });
  }
  for (let i = 0; i < 3; i++) {
    add({
      resourceType: 'ServiceRequest',
      status: 'active',
      intent: 'order',
      subject,
      category: [
        { coding: [{ system: 'http://snomed.info/sct', code: '108252007', display: 'Laboratory procedure' }] },
      ],
      code: { text: 'Comprehensive metabolic panel' },
      identifier: [{ value: `SR-${index}-${i}` }],
    });
  }
  for (let i = 0; i < 2; i++) {
    add({
      resourceType: 'DiagnosticReport',
      status: 'final',
      subject,
      code: { text: 'Lipid panel' },
      issued: pastDate(3650),
    });
    add({
      resourceType: 'DocumentReference',
      status: 'current',
      subject,
      content: [{ attachment: { contentType: 'text/plain', title: `Note ${i}` } }],
      date: pastDate(3650),
    });
    add({
      resourceType: 'Appointment',
      status: pick(['booked', 'proposed', 'fulfilled'] as const),
      participant: [{ actor: subject, status: 'accepted' }],
      start: new Date(now + between(-90, 90) * dayMs).toISOString(),
      end: new Date(now + between(-90, 90) * dayMs + 1_800_000).toISOString(),
    });
  }
  add({ resourceType: 'CarePlan', status: 'active', intent: 'plan', subject, title: 'Chronic care' });
  add({
    resourceType: 'AllergyIntolerance',
    patient: subject,
    code: { text: pick(['Penicillin', 'Peanuts', 'Latex']) },
  });
  add({
    resourceType: 'Device',
    patient: subject,
    deviceName: [{ name: 'Glucose meter', type: 'user-friendly-name' }],
  });
  return { resourceType: 'Bundle', type: 'transaction', entry: entries };
}
