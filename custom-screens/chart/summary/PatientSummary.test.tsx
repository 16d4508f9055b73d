import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AccessPolicy, Bundle, MedicationRequest, Observation, Task } from '@medplum/fhirtypes';
import { NOT_A_NUMBER_MESSAGE } from './rules/vitalsParsing';
import { localDay } from './summaryQueries';
import { patient, renderSummary, summaryServer } from './summaryTestSupport';

const heartRate = (value: number, date: string, extra: Partial<Observation> = {}): Observation => ({
  resourceType: 'Observation',
  id: `hr-${date}`,
  status: 'final',
  code: { coding: [{ system: 'http://loinc.org', code: '8867-4' }] },
  subject: { reference: 'Patient/p1' },
  effectiveDateTime: date,
  valueQuantity: { value, unit: '/min' },
  ...extra,
});

describe('PatientSummary loading', { timeout: 30_000 }, () => {
  it('sends its six searches (app-spec §7), the GP look-up and the open-task count in one batch round trip', async () => {
    const server = summaryServer({ autoBatchTime: 100 });
    renderSummary(server);
    await screen.findByText('No allergies recorded');
    const batches = server.fake.callsTo('POST', /\/fhir\/R4\/?$/);
    expect(batches).toHaveLength(1);
    const urls = ((JSON.parse(batches[0]!.body as string) as Bundle).entry ?? []).map((e) =>
      decodeURIComponent(e.request?.url ?? ''),
    );
    expect(urls).toHaveLength(8);
    const today = new Date();
    const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
    const page = '_count=100&_sort=-_lastUpdated';
    expect(urls).toEqual([
      `AllergyIntolerance?patient=Patient/p1&${page}`,
      `Condition?patient=Patient/p1&${page}`,
      `MedicationRequest?subject=Patient/p1&${page}&_include=MedicationRequest:medication`,
      `Observation?subject=Patient/p1&${page}`,
      `Appointment?patient=Patient/p1&date=ge${day}&status=proposed,pending,booked&${page}`,
      `Encounter?subject=Patient/p1&date=le${day}&status=finished&${page}`,
      'Patient?_id=p1&_include=Patient:general-practitioner' +
        '&_include:iterate=PractitionerRole:practitioner&_include:iterate=PractitionerRole:organization' +
        '&_elements=generalPractitioner,name,practitioner,organization,code',
      'Task?patient=Patient/p1&status=draft,requested,received,accepted,ready,in-progress,on-hold&_elements=status,restriction,focus&_count=100',
    ]);
    expect(server.fake.calls.filter((c) => c.method === 'GET')).toHaveLength(0);
  });

  it('shows who this is: name, birth date with age, "No provider", gender, links with counts', async () => {
    const server = summaryServer();
    server.store.set('Appointment', [{ resourceType: 'Appointment', id: 'a1', status: 'booked', participant: [] }]);
    renderSummary(server, { appointmentsHref: '/Patient/p1/Appointment' });
    expect(screen.getByRole('heading', { name: 'Maria Lopez' })).toBeInTheDocument();
    expect(screen.getByText(/^12 Mar 1972 \(\d+ y\)$/)).toBeInTheDocument();
    expect(screen.getByText('No provider')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Gender: female' })).toBeInTheDocument();
    const appointments = await screen.findByRole('link', { name: '1 upcoming appointment' });
    expect(appointments).toHaveAttribute('href', '/Patient/p1/Appointment');
    expect(await screen.findByRole('link', { name: '0 documented visits' })).toHaveAttribute('href', '#');
    expect(patient.generalPractitioner).toBeUndefined();
  });

  it('shows each vital’s latest value, its sparkline and flags critical and out-of-range readings', async () => {
    const server = summaryServer();
    server.store.set('Observation', [
      heartRate(70, '2024-01-01'),
      heartRate(88, '2024-02-01'),
      heartRate(140, '2024-03-12', { interpretation: [{ coding: [{ code: 'HH' }] }] }),
      {
        resourceType: 'Observation',
        id: 'bp1',
        status: 'final',
        code: { coding: [{ code: '85354-9' }] },
        effectiveDateTime: '2024-03-10',
        component: [
          { code: { coding: [{ code: '8480-6' }] }, valueQuantity: { value: 150, unit: 'mm[Hg]' } },
          { code: { coding: [{ code: '8462-4' }] }, valueQuantity: { value: 70, unit: 'mm[Hg]' } },
        ],
      },
    ]);
    renderSummary(server);
    const row = await screen.findByRole('button', { name: /^Heart rate 12 Mar 2024 140 \/min/ });
    expect(within(row).getByText('Critical')).toBeInTheDocument();
    expect(within(row).getByRole('img', { name: 'Heart rate trend: 70, 88, 140' })).toBeInTheDocument();
    const bp = screen.getByRole('button', { name: /^Blood pressure .*150\/70 mmHg/ });
    expect(within(bp).getByText('Systolic high')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Weight — .*Show trend$/ })).toBeInTheDocument();
  });
});

const task = (id: string, status: Task['status'], due?: string): Task => ({
  resourceType: 'Task',
  id,
  status,
  intent: 'order',
  for: { reference: 'Patient/p1' },
  ...(due ? { restriction: { period: { end: due } } } : {}),
});

const dayFromToday = (days: number) => localDay(new Date(Date.now() + days * 86_400_000));

describe('PatientSummary open tasks', { timeout: 30_000 }, () => {
  it('counts the open tasks, says how many are overdue in words, and links to the Tasks tab', async () => {
    const server = summaryServer();
    server.store.set('Task', [
      task('t1', 'ready', dayFromToday(-2)),
      task('t2', 'in-progress', dayFromToday(3)),
      task('t3', 'requested'),
      // Closed: neither counts, overdue or not.
      task('t4', 'completed', dayFromToday(-5)),
      task('t5', 'cancelled', dayFromToday(-5)),
    ]);
    renderSummary(server, { tasksHref: '/Patient/p1/Task' });
    const link = await screen.findByRole('link', { name: '3 open tasks · 1 overdue' });
    expect(link).toHaveAttribute('href', '/Patient/p1/Task');
    const overdue = within(link).getByText(/1 overdue/);
    expect(overdue).not.toBe(link);
    expect(getComputedStyle(overdue).color).not.toBe(getComputedStyle(link).color);
    // The spec's two links stay as they were.
    expect(screen.getByRole('link', { name: '0 upcoming appointments' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '0 documented visits' })).toBeInTheDocument();
  });

  it('says "No open tasks" when there are none, and counts again when a task is written', async () => {
    const server = summaryServer();
    server.store.set('Task', [task('t1', 'completed', dayFromToday(-1))]);
    renderSummary(server);
    expect(await screen.findByRole('link', { name: 'No open tasks' })).toHaveAttribute('href', '#');
    await server.client.createResource(task('t2', 'ready', dayFromToday(-1)));
    expect(await screen.findByRole('link', { name: '1 open task · 1 overdue' })).toBeInTheDocument();
  });

  it('neither asks for nor shows tasks when the caller’s policy does not allow searching them', async () => {
    const summaryTypes = [
      'AllergyIntolerance',
      'Condition',
      'MedicationRequest',
      'Observation',
      'Appointment',
      'Encounter',
      // The header's look-up of the general practitioner.
      'Patient',
    ];
    const policyFor = (types: string[]): AccessPolicy => ({
      resourceType: 'AccessPolicy',
      resource: types.map((resourceType) => ({ resourceType })),
    });
    const sentTypes = (server: ReturnType<typeof summaryServer>) => {
      const [batch] = server.fake.callsTo('POST', /\/fhir\/R4\/?$/);
      return ((JSON.parse(batch!.body as string) as Bundle).entry ?? []).map((e) => e.request?.url?.split('?')[0]);
    };

    // The same caller with Task in their policy gets the line: the policy alone makes the difference.
    const allowed = summaryServer({ autoBatchTime: 100 });
    allowed.store.set('Task', [task('t1', 'ready')]);
    vi.spyOn(allowed.client, 'getAccessPolicy').mockReturnValue(policyFor([...summaryTypes, 'Task']));
    const first = renderSummary(allowed);
    expect(await screen.findByRole('link', { name: '1 open task' })).toBeInTheDocument();
    expect(sentTypes(allowed)).toContain('Task');
    first.unmount();

    const refused = summaryServer({ autoBatchTime: 100 });
    refused.store.set('Task', [task('t1', 'ready')]);
    vi.spyOn(refused.client, 'getAccessPolicy').mockReturnValue(policyFor(summaryTypes));
    renderSummary(refused);
    await screen.findByRole('link', { name: '0 documented visits' });
    expect(sentTypes(refused)).toEqual(summaryTypes);
    expect(screen.queryByRole('link', { name: /tasks?\b/i })).not.toBeInTheDocument();
  });
});

describe('Allergies of a new patient', { timeout: 30_000 }, () => {
  it('says none are recorded, not "No known allergies": nobody stated NKA', async () => {
    renderSummary(summaryServer());
    const section = await screen.findByRole('region', { name: 'Allergies' });
    expect(await within(section).findByText('No allergies recorded')).toBeInTheDocument();
    expect(section).not.toHaveTextContent(/known allergies/i);
  });
});

describe('Vitals modal', { timeout: 30_000 }, () => {
  it('refuses a value that is not a number with a message under the field, and posts nothing', async () => {
    const user = userEvent.setup();
    const server = summaryServer();
    renderSummary(server);
    await user.click(await screen.findByRole('button', { name: 'Record vitals' }));
    await user.type(screen.getByRole('textbox', { name: 'Heart rate' }), '72');
    await user.type(screen.getByRole('textbox', { name: 'Temperature' }), 'hot');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const temperature = screen.getByRole('textbox', { name: 'Temperature' });
    expect(temperature).toHaveAccessibleDescription(NOT_A_NUMBER_MESSAGE);
    expect(temperature).toHaveAttribute('aria-invalid', 'true');
    expect(server.posted('Observation')).toEqual([]);
    expect(screen.getByRole('textbox', { name: 'Heart rate' })).toHaveValue('72');
  });

  it('saves a BP with one valid part as one Observation with one component, each vital its own POST, and draws it', async () => {
    const user = userEvent.setup();
    const server = summaryServer();
    renderSummary(server);
    await user.click(await screen.findByRole('button', { name: 'Record vitals' }));
    await user.type(screen.getByRole('textbox', { name: 'Systolic BP' }), '128');
    await user.type(screen.getByRole('textbox', { name: 'Heart rate' }), '64');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Vitals saved (2)');
    const posted = server.posted('Observation') as Observation[];
    expect(posted).toHaveLength(2);
    const bp = posted.find((o) => o.code.coding?.[0]?.code === '85354-9');
    expect(bp?.status).toBe('preliminary');
    expect(bp?.component).toEqual([
      {
        code: { coding: [{ system: 'http://loinc.org', code: '8480-6', display: 'Systolic blood pressure' }] },
        valueQuantity: { value: 128, unit: 'mm[Hg]', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('button', { name: /^Heart rate .*64 \/min/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Blood pressure .*128\/– mmHg/ })).toBeInTheDocument();
  });

  it('keeps the vitals a server refused, drops those it saved, and shows its error', async () => {
    const user = userEvent.setup();
    const server = summaryServer();
    renderSummary(server);
    server.failWrites('Observation', [{ text: 'Value out of bounds' }]);
    await user.click(await screen.findByRole('button', { name: 'Record vitals' }));
    await user.type(screen.getByRole('textbox', { name: 'Heart rate' }), '64');
    await user.type(screen.getByRole('textbox', { name: 'Weight' }), '70');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('1 of 2 vitals were not saved')).toBeInTheDocument();
    // The first POST (heart rate) was refused; weight was saved and leaves the draft.
    expect(screen.getByRole('textbox', { name: 'Heart rate' })).toHaveValue('64');
    expect(screen.getByRole('textbox', { name: 'Heart rate' })).toHaveAccessibleDescription('Value out of bounds');
    expect(screen.getByRole('textbox', { name: 'Weight' })).toHaveValue('');
  });

  it('keeps the draft when closed with Escape and forgets it on Cancel', async () => {
    const user = userEvent.setup();
    const server = summaryServer();
    renderSummary(server);
    await user.click(await screen.findByRole('button', { name: 'Record vitals' }));
    await user.type(screen.getByRole('textbox', { name: 'Weight' }), '81.5');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Record vitals' }));
    expect(screen.getByRole('textbox', { name: 'Weight' })).toHaveValue('81.5');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Record vitals' }));
    expect(screen.getByRole('textbox', { name: 'Weight' })).toHaveValue('');
  });
});

// A patient as newer Synthea exports write them (fields from the Synthea R4 samples: synthetic, Apache-2.0).
describe('PatientSummary of an imported Synthea record', { timeout: 30_000 }, () => {
  it('names orders by their Medication, lists current encounter diagnoses and dates, and says the patient died', async () => {
    const server = summaryServer();
    server.store.set('MedicationRequest', [
      {
        resourceType: 'MedicationRequest',
        id: 'old',
        status: 'stopped',
        intent: 'order',
        subject: { reference: 'Patient/p1' },
        medicationReference: { reference: 'Medication/simva' },
        authoredOn: '1975-07-31T21:51:36+00:00',
      },
      {
        resourceType: 'MedicationRequest',
        id: 'current',
        status: 'active',
        intent: 'order',
        subject: { reference: 'Patient/p1' },
        medicationReference: { reference: 'Medication/simva' },
        authoredOn: '1974-07-31T21:51:36+00:00',
      },
    ]);
    server.included.set('MedicationRequest', [
      {
        resourceType: 'Medication',
        id: 'simva',
        code: {
          coding: [
            { system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '316672', display: 'Simvistatin 10 MG' },
          ],
          text: 'Simvistatin 10 MG',
        },
      },
    ]);
    const encounterDiagnosis = [
      { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-category', code: 'encounter-diagnosis' }] },
    ];
    const clinical = (code: string) => ({
      coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code }],
    });
    server.store.set('Condition', [
      {
        resourceType: 'Condition',
        id: 'sinusitis',
        category: encounterDiagnosis,
        clinicalStatus: clinical('resolved'),
        code: { text: 'Viral sinusitis (disorder)' },
        subject: { reference: 'Patient/p1' },
        onsetDateTime: '1976-02-01T21:51:36+00:00',
      },
      {
        resourceType: 'Condition',
        id: 'chf',
        category: encounterDiagnosis,
        clinicalStatus: clinical('active'),
        code: { text: 'Chronic congestive heart failure (disorder)' },
        subject: { reference: 'Patient/p1' },
        recordedDate: '1977-06-22',
      },
    ]);
    renderSummary(server, {
      patient: {
        resourceType: 'Patient',
        id: 'p1',
        name: [{ given: ['Jena'], family: 'Terry' }],
        birthDate: '1924-06-16',
        deceasedDateTime: '1978-01-11',
      },
    });
    expect(screen.getByText('16 Jun 1924 · died 11 Jan 1978 (53 y)')).toBeInTheDocument();
    const medications = screen.getByRole('region', { name: 'Medications' });
    const rows = await within(medications).findAllByRole('button', { name: /Simvistatin 10 MG/ });
    // One medication, one row: the order still being taken, though it was written earlier.
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/Simvistatin 10 MG.*Ordered 31 Jul 1974 · 1 other order.*active/),
    ]);
    expect(within(medications).queryByText('Unnamed medication')).toBeNull();
    const problems = screen.getByRole('region', { name: 'Problem List' });
    expect(await within(problems).findByText('Chronic congestive heart failure (disorder)')).toBeInTheDocument();
    expect(within(problems).getByText('Recorded 22 Jun 1977')).toBeInTheDocument();
    expect(within(problems).queryByText('Viral sinusitis (disorder)')).toBeNull();
  });

  it('lists a medication ordered again and again once, with its count, and folds many past ones behind a toggle', async () => {
    const user = userEvent.setup();
    const server = summaryServer();
    vi.spyOn(server.client, 'getProfile').mockReturnValue({ resourceType: 'Practitioner', id: 'alice' });
    const simvastatin = {
      coding: [
        {
          system: 'http://www.nlm.nih.gov/research/umls/rxnorm',
          code: '314231',
          display: 'Simvastatin 10 MG Oral Tablet',
        },
      ],
      text: 'Simvastatin 10 MG Oral Tablet',
    };
    const order = (
      id: string,
      status: MedicationRequest['status'],
      authoredOn: string,
      text?: string,
    ): MedicationRequest => ({
      resourceType: 'MedicationRequest',
      id,
      status,
      intent: 'order',
      subject: { reference: 'Patient/p1' },
      medicationCodeableConcept: text ? { text } : simvastatin,
      authoredOn,
    });
    const refills = Array.from({ length: 19 }, (_, i) => order(`s${i}`, 'stopped', `${2007 + i}-11-13T09:00:00+00:00`));
    const pastDrugs = [
      'Amoxicillin 250 MG',
      'Acetaminophen 325 MG',
      'Ibuprofen 200 MG',
      'Naproxen 220 MG',
      'Penicillin V 250 MG',
      'Cefuroxime 250 MG',
    ];
    server.store.set('MedicationRequest', [
      ...refills,
      order('s-now', 'active', '2026-11-13T09:00:00+00:00'),
      ...pastDrugs.map((name, i) => order(`p${i}`, 'completed', `201${i}-02-01`, name)),
    ]);
    renderSummary(server);
    const medications = screen.getByRole('region', { name: 'Medications' });
    const row = await within(medications).findByRole('button', { name: /^Edit medication Simvastatin 10 MG/ });
    expect(within(medications).getAllByRole('button', { name: /Simvastatin/ })).toHaveLength(1);
    expect(row).toHaveTextContent('Ordered 13 Nov 2026 · 19 earlier orders');
    expect(within(row).getByText('active')).toBeInTheDocument();
    // Past medications are folded, and the toggle says how many.
    expect(within(medications).queryByRole('button', { name: /Amoxicillin/ })).toBeNull();
    const toggle = within(medications).getByRole('button', { name: 'Show 6 past medications' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    toggle.focus();
    await user.keyboard('{Enter}');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveTextContent('Hide past medications');
    for (const name of pastDrugs) {
      expect(
        within(medications).getByRole('button', { name: new RegExp(`^Edit medication ${name}`) }),
      ).toBeInTheDocument();
    }
    await user.click(toggle);
    expect(within(medications).queryByRole('button', { name: /Amoxicillin/ })).toBeNull();
    // Editing the row edits its order: the active one.
    await user.click(row);
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByRole('combobox', { name: /Status/ })).toHaveTextContent('active');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Medication updated');
    expect(server.fake.callsTo('PUT', /\/fhir\/R4\/MedicationRequest\/s-now$/)).toHaveLength(1);
  });
});
