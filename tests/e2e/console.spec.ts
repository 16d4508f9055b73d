import { readFileSync } from 'node:fs';
import { expect, test, type Page, type Route } from '@playwright/test';
import { api, apiStatus, main, rawApi, signInAs as signIn } from './consoleSupport';
import { injectAxe } from './axeInjection';

// Set SCREENSHOT_DIR=docs/screenshots to refresh the pictures in the docs; CI keeps them out of the tree.
const shots = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';

function collectErrors(page: Page): string[] {
  const messages: string[] = [];
  page.on('pageerror', (error) => messages.push(error.message));
  return messages;
}

test.describe('resource console', () => {
  test('the home page lists patients; a Patient is created and renamed in its chart; a Practitioner is edited, patched, viewed in history and deleted', async ({
    page,
  }) => {
    const errors = collectErrors(page);
    await signIn(page, 'alice@demo.hearth.example');
    const rows = main(page).getByRole('table', { name: 'Patient search results' }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(6);
    await expect(main(page).getByRole('toolbar', { name: 'Search toolbar' })).toHaveCount(0);
    await page.screenshot({ path: `${shots}/console-home-light.png`, fullPage: true });

    // A Patient created in the console opens in its chart (a Patient's page is the chart, app-spec §2.2).
    await page.goto('/Patient/new');
    await expect(main(page).getByLabel('Resource Type')).toHaveValue('Patient');
    await main(page).getByRole('button', { name: 'Add Name' }).click();
    await main(page).getByLabel('Given').fill('Testa Maria');
    await main(page).getByLabel('Family').fill('Console');
    await main(page).getByLabel('Birth Date', { exact: true }).fill('1980-02-03');
    await page.screenshot({ path: `${shots}/console-editor-light.png`, fullPage: true });
    await main(page).getByRole('button', { name: 'Create' }).click();
    await expect(page).toHaveURL(/\/Patient\/[0-9a-f-]+$/);
    await expect(main(page).getByRole('heading', { name: 'Testa Maria Console' })).toBeVisible();
    const patientId = page.url().split('/')[4];

    // The chart's Edit tab validates against US Core: what the console let through is asked for.
    await main(page).getByRole('tab', { name: 'Edit' }).click();
    await main(page).getByLabel('Family').fill('Consoleton');
    await main(page).getByRole('button', { name: 'Update' }).click();
    await expect(main(page).getByRole('alert')).toContainText('Missing required property (Patient.identifier)');
    await expect(main(page).getByLabel('Family')).toHaveValue('Consoleton');
    await main(page).getByRole('button', { name: 'Add Identifier' }).click();
    const identifier = main(page).getByRole('group', { name: /^Identifier 1/ });
    await identifier.getByLabel('System', { exact: true }).fill('urn:hearth:mrn');
    await identifier.getByLabel('Value', { exact: true }).fill('MRN-CONSOLE-1');
    // Under the profile, gender is a choice from its required value set.
    await main(page).getByRole('combobox', { name: 'Gender', exact: true }).click();
    await page.getByRole('option', { name: 'Female (female)' }).click();
    // The persistent error toast stays up, clear of Update (a click on a covered button fails).
    await expect(page.locator('.notistack-MuiContent-error').first()).toBeVisible();
    await main(page).getByRole('button', { name: 'Update' }).click();
    // Saved: the new name shows in the chart's header at once.
    await expect(main(page).getByRole('heading', { name: 'Testa Maria Consoleton' })).toBeVisible();
    expect((await api(page, 'GET', `Patient/${patientId}`)).name[0].family).toBe('Consoleton');
    expect(await apiStatus(page, 'DELETE', `Patient/${patientId}`)).toBe(200);

    // The generic pages: Details, Edit, Patch, History and Delete of a Practitioner.
    const practitioner = await api(page, 'POST', 'Practitioner', {
      resourceType: 'Practitioner',
      name: [{ given: ['Testa'], family: 'Console' }],
    });
    const id = practitioner.id as string;
    await page.goto(`/Practitioner/${id}`);
    await expect(main(page).getByRole('heading', { name: 'Testa Console' })).toBeVisible();

    // Edit: change the family name and update.
    await main(page).getByRole('tab', { name: 'Edit' }).click();
    await main(page).getByLabel('Family').fill('Consoleton');
    await main(page).getByRole('button', { name: 'Update' }).click();
    await expect(main(page).getByRole('heading', { name: 'Testa Consoleton' })).toBeVisible();

    // Patch: gender through More actions → Patch.
    await main(page).getByRole('tab', { name: 'Edit' }).click();
    await main(page).getByLabel('Gender').fill('female');
    await main(page).getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Patch' }).click();
    await expect(page).toHaveURL(new RegExp(`/Practitioner/${id}/details$`));
    await expect(main(page).getByText('female')).toBeVisible();

    // History: three versions, the newest a Before/After diff of gender.
    await main(page).getByRole('tab', { name: 'History' }).click();
    const history = main(page).getByRole('table', { name: 'History' }).locator('tbody tr');
    await expect(history).toHaveCount(3);
    const newest = (await history.first().getByRole('link').textContent())?.trim();
    const patched = main(page).getByRole('table', { name: `Changes in version ${newest}` });
    await expect(patched.getByRole('row', { name: /gender.*female/ })).toBeVisible();
    await expect(main(page).getByText('Created ·')).toBeVisible();
    await page.screenshot({ path: `${shots}/console-history-light.png`, fullPage: true });
    await history.first().getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`/Practitioner/${id}/_history/`));
    await expect(main(page).getByText('"gender": "female"')).toBeVisible();

    // Delete through More actions, with confirmation.
    await page.goto(`/Practitioner/${id}/edit`);
    await main(page).getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(/\/Practitioner(\?.*)?$/);
    expect(await apiStatus(page, 'GET', `Practitioner/${id}`)).toBe(410);
    expect(errors).toEqual([]);
  });

  test('an Observation with value[x] is created with a Quantity, and a validation error shows under its field', async ({
    page,
  }) => {
    await signIn(page, 'alice@demo.hearth.example');
    await page.goto('/Observation/new');
    // status is required: leaving it out gives a server validation issue under the Status field.
    await main(page).getByLabel('Value type').click();
    await page.getByRole('option', { name: 'Quantity', exact: true }).click();
    await main(page).locator('[id="field-Observation-valueQuantity-value"]').fill('72');
    await main(page).locator('[id="field-Observation-valueQuantity-unit"]').fill('/min');
    await main(page).getByRole('button', { name: 'Create' }).click();
    await expect(page.getByRole('alert').first()).toBeVisible();
    await expect(main(page).locator('#field-Observation-status-helper-text')).toBeVisible();
    await page.screenshot({ path: `${shots}/console-validation-light.png`, fullPage: true });
    // The form keeps its input.
    await expect(main(page).locator('[id="field-Observation-valueQuantity-value"]')).toHaveValue('72');
    await main(page).getByLabel('Status').fill('final');
    await main(page).locator('#field-Observation-code-text').fill('Heart rate');
    // Reference: choose the target type, search Patients by name (_count 10), pick one.
    await main(page).getByLabel('Subject type').click();
    await page.getByRole('option', { name: 'Patient', exact: true }).click();
    await main(page).getByRole('combobox', { name: 'Subject', exact: true }).fill('zzzz-nobody');
    await expect(page.getByText('Nothing found')).toBeVisible();
    await main(page).getByRole('combobox', { name: 'Subject', exact: true }).fill('');
    await page.getByRole('option').first().click();
    // The failure toast stays until closed (app-spec §8): close it, it sits over the form's buttons.
    for (const close of await page.getByRole('button', { name: 'Close notification' }).all()) await close.click();
    await main(page).getByRole('button', { name: 'Create' }).click();
    await expect(page).toHaveURL(/\/Observation\/[0-9a-f-]+\/details$/);
    await expect(main(page).getByText('72 /min')).toBeVisible();
    await expect(main(page).getByRole('link', { name: /\S/ }).first()).toBeVisible();
    expect(page.url()).toMatch(/\/Observation\/[0-9a-f-]+\/details$/);
    const observationId = page.url().split('/')[4];
    const observation = await api(page, 'GET', `Observation/${observationId}`);
    expect(observation.subject.reference).toMatch(/^Patient\//);
    expect(observation.valueQuantity).toEqual({ value: 72, unit: '/min' });
    await expect(main(page).locator('[data-status-color="green"]')).toHaveText('final');
    await page.screenshot({ path: `${shots}/console-details-light.png`, fullPage: true });
  });

  test('an Observation is edited to another value[x] type, patched, viewed in history and deleted', async ({
    page,
  }) => {
    const errors = collectErrors(page);
    await signIn(page, 'alice@demo.hearth.example');
    const created = await api(page, 'POST', 'Observation', {
      resourceType: 'Observation',
      status: 'preliminary',
      code: { text: 'Mood' },
      valueQuantity: { value: 3, unit: 'score' },
    });
    const id = created.id as string;

    // Edit: the choice type switch replaces valueQuantity by valueString.
    await page.goto(`/Observation/${id}/edit`);
    await expect(main(page).locator('[id="field-Observation-valueQuantity-value"]')).toHaveValue('3');
    await main(page).getByLabel('Value type').click();
    await page.getByRole('option', { name: 'string', exact: true }).click();
    await main(page).locator('[id="field-Observation-valueString"]').fill('Calm and cheerful');
    await main(page).getByRole('button', { name: 'Update' }).click();
    await expect(page).toHaveURL(new RegExp(`/Observation/${id}/details$`));
    await expect(main(page).getByText('Calm and cheerful')).toBeVisible();
    const edited = await api(page, 'GET', `Observation/${id}`);
    expect(edited.valueString).toBe('Calm and cheerful');
    expect(edited.valueQuantity).toBeUndefined();

    // Patch: status through More actions → Patch (a JSON Patch guarded by the version).
    await main(page).getByRole('tab', { name: 'Edit' }).click();
    await main(page).getByLabel('Status').fill('final');
    await main(page).getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Patch' }).click();
    await expect(page).toHaveURL(new RegExp(`/Observation/${id}/details$`));
    await expect(main(page).locator('[data-status-color="green"]')).toHaveText('final');

    // History: three versions; the edit shows valueQuantity going and valueString coming.
    await main(page).getByRole('tab', { name: 'History' }).click();
    const history = main(page).getByRole('table', { name: 'History' }).locator('tbody tr');
    await expect(history).toHaveCount(3);
    const second = main(page).getByRole('table', { name: `Changes in version ${edited.meta.versionId}` });
    await expect(second.getByRole('row', { name: /valueString.*Calm and cheerful/ })).toBeVisible();
    await expect(second.getByRole('row', { name: /valueQuantity/ })).toBeVisible();

    // Delete with confirmation: the resource is gone (410).
    await page.goto(`/Observation/${id}/edit`);
    await main(page).getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(/\/Observation(\?.*)?$/);
    expect(await apiStatus(page, 'GET', `Observation/${id}`)).toBe(410);
    expect(errors).toEqual([]);
  });

  test('the Edit tab: a stale update is refused (If-Match), unsaved changes are asked about, an unchanged Update sends nothing', async ({
    page,
  }) => {
    const errors = collectErrors(page);
    await signIn(page, 'alice@demo.hearth.example');
    const created = await api(page, 'POST', 'ChargeItem', {
      resourceType: 'ChargeItem',
      status: 'billable',
      code: { text: 'Office visit' },
      subject: { display: 'Conflict test' },
    });
    const id = created.id as string;
    await page.goto(`/ChargeItem/${id}/edit`);
    await expect(main(page).getByLabel('Override Reason')).toBeVisible();

    // Update with nothing changed: no request, no new version.
    await main(page).getByRole('button', { name: 'Update' }).click();
    await expect(page.getByText('No changes to save')).toBeVisible();
    expect((await api(page, 'GET', `ChargeItem/${id}`)).meta.versionId).toBe(created.meta.versionId);

    // Another user saves while this form is open; this form's Update is then refused, nothing lost.
    await api(page, 'PUT', `ChargeItem/${id}`, { ...created, overrideReason: 'Courtesy discount' });
    await main(page).getByLabel('Factor Override').fill('0.8');
    await main(page).getByRole('button', { name: 'Update' }).click();
    const conflict = main(page).getByRole('alert').filter({ hasText: 'Another user modified this ChargeItem' });
    await expect(conflict).toContainText('Another user modified this ChargeItem since you opened it.');
    await expect(conflict).toContainText('changed overrideReason');
    await expect(main(page).getByLabel('Factor Override')).toHaveValue('0.8');
    await page.screenshot({ path: `${shots}/console-editor-conflict-light.png`, fullPage: true });
    const stored = await api(page, 'GET', `ChargeItem/${id}`);
    expect(stored.overrideReason).toBe('Courtesy discount');
    expect(stored.factorOverride).toBeUndefined();

    // Leaving with unsaved changes asks; Keep editing stays with the typed value.
    await main(page).getByRole('tab', { name: 'History' }).click();
    const prompt = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
    await prompt.getByRole('button', { name: 'Keep editing' }).click();
    await expect(page).toHaveURL(new RegExp(`/ChargeItem/${id}/edit$`));
    await expect(main(page).getByLabel('Factor Override')).toHaveValue('0.8');

    // Their version, after a confirm; the retry on it saves both changes.
    await conflict.getByRole('button', { name: 'Load their version' }).click();
    await page
      .getByRole('dialog', { name: 'Load their version?' })
      .getByRole('button', { name: 'Discard and load' })
      .click();
    await expect(main(page).getByLabel('Override Reason')).toHaveValue('Courtesy discount');
    await main(page).getByLabel('Factor Override').fill('0.8');
    await main(page).getByRole('button', { name: 'Update' }).click();
    await expect(page).toHaveURL(new RegExp(`/ChargeItem/${id}/details$`));
    const saved = await api(page, 'GET', `ChargeItem/${id}`);
    expect(saved).toMatchObject({ overrideReason: 'Courtesy discount', factorOverride: 0.8 });
    expect(await apiStatus(page, 'DELETE', `ChargeItem/${id}`)).toBe(200);
    expect(errors).toEqual([]);
  });

  test('the search list: fields, filters of each parameter type, paging, export and bulk delete', async ({ page }) => {
    await signIn(page, 'alice@demo.hearth.example');
    // With no columns named, a type opens with its readable ones (names, not UUIDs).
    // Other tests of the run may have added patients to the clinic: the server's count is the truth.
    const total = (await api(page, 'GET', 'Patient?_summary=count')).total as number;
    expect(total).toBeGreaterThanOrEqual(6);
    await page.goto('/Patient');
    const table = main(page).getByRole('table', { name: 'Patient search results' });
    await expect(table.locator('tbody tr')).toHaveCount(total);
    await expect(table.getByRole('button', { name: 'Name' })).toBeVisible();
    await expect(table.getByRole('button', { name: 'Birth Date' })).toBeVisible();
    await expect(table.getByRole('button', { name: 'ID', exact: true })).toHaveCount(0);
    await page.goto('/Patient?_fields=_id,_lastUpdated');
    await expect(table.locator('tbody tr')).toHaveCount(total);
    await expect(main(page).getByText(`1-${total} of ${total}`)).toBeVisible();

    // Fields dialog: add Name and Gender columns.
    await main(page).getByRole('button', { name: 'Fields' }).click();
    await page.getByRole('dialog').getByLabel('Fields').fill('gender');
    await page.getByRole('option', { name: /Gender/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
    await expect(page).toHaveURL(/_fields=_id%2C_lastUpdated%2Cgender|_fields=_id,_lastUpdated,gender/);
    await expect(table.getByRole('button', { name: 'Gender' })).toBeVisible();

    // Token filter through the column menu.
    const rowsBefore = await table.locator('tbody tr').count();
    await table.getByRole('button', { name: 'Gender' }).click();
    await page.getByRole('menuitem', { name: 'Equals...' }).click();
    await page.getByRole('dialog').getByLabel('Value').fill('female');
    await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
    await expect(page).toHaveURL(/gender=female/);
    // Rows of the previous page stay on screen until the filtered page arrives.
    await expect(main(page).getByRole('progressbar', { name: 'Loading results' })).toHaveCount(0);
    // The filtered page may not have started loading yet: wait for the table to change.
    // (Other specs register and invite patients: the count is compared with this list's, not a constant.)
    await expect.poll(() => table.locator('tbody tr').count()).toBeLessThan(rowsBefore);
    const femaleCount = await table.locator('tbody tr').count();
    expect(femaleCount).toBeGreaterThan(0);

    // String filter (contains) and date filter through the Filters dialog.
    await main(page).getByRole('button', { name: 'Filters' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Delete filter 1' }).click();
    await dialog.getByRole('button', { name: 'Add filter' }).click();
    await dialog.getByLabel('Field 1').click();
    await page.getByRole('option', { name: 'Birthdate (birthdate)', exact: true }).click();
    await dialog.getByLabel('Operation 1').click();
    await page.getByRole('option', { name: 'greater than', exact: true }).click();
    await dialog.getByLabel('Value 1').fill('1900-01-01');
    await dialog.getByRole('button', { name: 'Add filter' }).click();
    await dialog.getByLabel('Field 2').click();
    await page.getByRole('option', { name: 'Name (name)', exact: true }).click();
    await dialog.getByLabel('Operation 2').click();
    await page.getByRole('option', { name: 'contains', exact: true }).click();
    await dialog.getByLabel('Value 2').fill('a');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect(page).toHaveURL(/birthdate=gt1900-01-01/);
    await expect(page).toHaveURL(/name%3Acontains=a|name:contains=a/);
    await expect(table.locator('tbody tr').first()).toBeVisible();

    // A filter nothing matches shows No results.
    await page.goto('/Patient?_id=00000000-0000-0000-0000-000000000000');
    await expect(main(page).getByText('No results')).toBeVisible();
    await page.screenshot({ path: `${shots}/console-list-empty-light.png`, fullPage: true });

    // Reference and number filters are sent as written (Observation subject, value-quantity).
    await page.goto('/Observation?value-quantity=gt0&_count=5');
    await expect(main(page).getByRole('table', { name: 'Observation search results' }).locator('tbody tr')).toHaveCount(
      5,
    );
    await main(page).getByRole('button', { name: 'Next page' }).click();
    await expect(page).toHaveURL(/_offset=5/);
    await expect(main(page).getByText(/^6-10 of/)).toBeVisible();
    await page.screenshot({ path: `${shots}/console-list-light.png`, fullPage: true });

    // Export: CSV of the shown columns. (Plain /Patient would reopen the last Patient search, the empty one.)
    await page.goto('/Patient?_sort=-_lastUpdated');
    await main(page).getByRole('button', { name: 'Export...' }).click();
    const downloadPromise = page.waitForEvent('download');
    await page.getByRole('dialog').getByRole('button', { name: 'Export' }).click();
    const download = await downloadPromise;
    const csv = readFileSync(await download.path(), 'utf8');
    // The columns a person reads (Patient's defaults), the same as the table's headers.
    const headers = await table.getByRole('columnheader').allInnerTexts();
    // An export is data: the record's id first, then the shown columns in their order.
    expect(csv.split('\r\n')[0]).toBe('ID,Name,Active,Birth Date,Gender,Last Updated');
    // Dates as stored (ISO 8601 with its zone), not the table's display style.
    expect(csv.split('\r\n')[1]).toMatch(
      /^[\w\-.]+,.*,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/,
    );
    expect(headers.map((h) => h.trim()).filter(Boolean)).toEqual([
      'Name',
      'Active',
      'Birth Date',
      'Gender',
      'Last Updated',
    ]);
    const patientCount = await api(page, 'GET', 'Patient?_summary=count');
    expect(csv.trim().split('\r\n')).toHaveLength(patientCount.total + 1);

    // Bulk delete: two new Tasks selected and deleted in one batch after confirmation.
    const ids: string[] = [];
    for (const text of ['bulk one', 'bulk two']) {
      const created = await api(page, 'POST', 'Task', {
        resourceType: 'Task',
        status: 'ready',
        intent: 'order',
        description: text,
      });
      ids.push(created.id);
    }
    await page.goto('/Task?_sort=-_lastUpdated');
    const tasks = main(page).getByRole('table', { name: 'Task search results' });
    for (const id of ids) await tasks.getByRole('checkbox', { name: `Select Task/${id}` }).check();
    await main(page).getByRole('button', { name: 'Delete...' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(tasks.getByRole('checkbox', { name: `Select Task/${ids[0]}` })).toHaveCount(0);
    for (const id of ids) expect(await apiStatus(page, 'GET', `Task/${id}`)).toBe(410);
  });

  test('a US Core profiled Patient is edited through the Profiles picker', async ({ page }) => {
    await signIn(page, 'alice@demo.hearth.example');
    const patient = await api(page, 'POST', 'Patient', {
      resourceType: 'Patient',
      meta: { profile: ['http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient'] },
      identifier: [{ system: 'urn:test', value: 'uscore-1' }],
      name: [{ family: 'Profiled', given: ['Uma'] }],
      gender: 'female',
    });
    await page.goto(`/Patient/${patient.id}/edit`);
    await expect(main(page).getByLabel('Profiles')).toHaveValue(/US Core Patient/i);
    await main(page).getByLabel('Family').fill('Profiledson');
    await main(page).getByRole('button', { name: 'Update' }).click();
    await expect(main(page).getByRole('heading', { name: 'Uma Profiledson' })).toBeVisible();
    const saved = await api(page, 'GET', `Patient/${patient.id}`);
    expect(saved.meta.profile).toContain('http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient');
    expect(saved.identifier).toEqual([{ system: 'urn:test', value: 'uscore-1' }]);
  });

  test('the front desk policy refuses editing a read-only type', async ({ page }) => {
    await signIn(page, 'ben@demo.hearth.example');
    const policy = await page.evaluate(() => JSON.parse(localStorage.getItem('hearth.activeLogin') ?? '{}'));
    expect(policy).toBeTruthy();
    const readOnlyType = await frontDeskReadOnlyType(page);
    await page.goto(`/${readOnlyType}/new`);
    await expect(main(page).getByText('Permission denied')).toBeVisible();
    await expect(
      main(page).getByText(`Your access level prevents you from editing and creating ${readOnlyType} resources.`),
    ).toBeVisible();
  });

  test('a DiagnosticReport opens from its row inside the patient, with the report view and results table', async ({
    page,
  }) => {
    await signIn(page, 'alice@demo.hearth.example');
    await page.goto('/DiagnosticReport?result:missing=false&_count=5');
    const rows = main(page).getByRole('table', { name: 'DiagnosticReport search results' }).locator('tbody tr');
    await rows.first().locator('td').nth(1).click();
    await expect(page).toHaveURL(/\/Patient\/[^/]+\/DiagnosticReport\/[^/]+$/);
    const report = main(page).getByLabel('Diagnostic report');
    for (const section of ['Subject', 'Interpreter', 'Performer', 'Issued', 'Status']) {
      await expect(report.getByText(section, { exact: true }).first()).toBeVisible();
    }
    await expect(report.getByRole('table', { name: 'Results' }).locator('tbody tr').first()).toBeVisible();
    await page.screenshot({ path: `${shots}/console-diagnostic-report-light.png`, fullPage: true });
  });

  test('JSON tab: an invalid edit shows the server issues and changes nothing', async ({ page }) => {
    await signIn(page, 'alice@demo.hearth.example');
    // A Patient's page is its chart; the JSON tab is the console's, tried on a Practitioner.
    const practitioner = await api(page, 'POST', 'Practitioner', { resourceType: 'Practitioner', gender: 'male' });
    await page.goto(`/Practitioner/${practitioner.id}/json`);
    const json = main(page).getByLabel('JSON');
    await json.fill(JSON.stringify({ ...practitioner, gender: 'not-a-gender', birthDate: 'yesterday' }));
    await main(page).getByRole('button', { name: 'Save JSON' }).click();
    await expect(main(page).getByRole('alert')).toContainText(/birthDate|gender/);
    const stored = await api(page, 'GET', `Practitioner/${practitioner.id}`);
    expect(stored.meta.versionId).toBe(practitioner.meta.versionId);
    for (const close of await page.getByRole('button', { name: 'Close notification' }).all()) await close.click();
    await json.fill('{ not json');
    await main(page).getByRole('button', { name: 'Save JSON' }).click();
    await expect(main(page).getByRole('alert')).toContainText('Not valid JSON');
  });

  test('a narrative with a script is refused by the server, and one stored before is shown without it', async ({
    page,
  }) => {
    const errors = collectErrors(page);
    await signIn(page, 'alice@demo.hearth.example');
    const practitioner = await api(page, 'POST', 'Practitioner', {
      resourceType: 'Practitioner',
      name: [{ family: 'Narrative' }],
      gender: 'female',
      text: { status: 'generated', div: '<div xmlns="http://www.w3.org/1999/xhtml"><b>Dr Narrative</b></div>' },
    });
    const hostile =
      '<div xmlns="http://www.w3.org/1999/xhtml"><b>Dr Narrative</b><script>window.ranScript = 1</script>' +
      '<img src="x" onerror="window.ranHandler = 1"/><a href="javascript:window.ranLink = 1">site</a></div>';
    // The server refuses it on the way in (FHIR txt-1), naming the field.
    const refused = await rawApi(page, 'PUT', `Practitioner/${practitioner.id}`, {
      ...practitioner,
      text: { status: 'generated', div: hostile },
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('Practitioner.text.div');
    // A row stored before the rule (here: the read's answer rewritten on its way to the page) is
    // sanitized by the page itself, in a real browser's DOM.
    // A request of the page before (a batch of its code lookups) may still be out when the page
    // moves on, and its answer is disposed: nobody reads it any more, so it is left alone.
    const answerOf = async (route: Route) => {
      try {
        const response = await route.fetch();
        return { response, body: await response.json() };
      } catch {
        return undefined;
      }
    };
    await page.route(`**/fhir/R4/Practitioner/${practitioner.id}`, async (route) => {
      const answer = await answerOf(route);
      if (!answer) return;
      await route.fulfill({
        response: answer.response,
        json: { ...answer.body, text: { status: 'generated', div: hostile } },
      });
    });
    // The client sends GETs that fall in the same 100 ms as one batch: the read may come that way too.
    await page.route(
      (url) => url.pathname.replace(/\/$/, '') === '/fhir/R4',
      async (route) => {
        if (route.request().method() !== 'POST') return route.fallback();
        const answer = await answerOf(route);
        if (!answer) return;
        const { response, body } = answer;
        for (const entry of body.entry ?? []) {
          if (entry.resource?.resourceType === 'Practitioner' && entry.resource.id === practitioner.id) {
            entry.resource.text = { status: 'generated', div: hostile };
          }
        }
        await route.fulfill({ response, json: body });
      },
    );
    await page.goto(`/Practitioner/${practitioner.id}`);
    const narrative = main(page).locator('.narrative');
    await expect(narrative.locator('b')).toHaveText('Dr Narrative');
    await expect(narrative.locator('script')).toHaveCount(0);
    await expect(narrative.locator('img')).not.toHaveAttribute('onerror', /.*/);
    await expect(narrative.getByText('site')).not.toHaveAttribute('href', /javascript/);
    const ran = await page.evaluate(() => {
      const flags = window as unknown as Record<string, unknown>;
      return [flags.ranScript, flags.ranHandler, flags.ranLink];
    });
    expect(ran).toEqual([undefined, undefined, undefined]);
    expect(errors).toEqual([]);
  });

  test('an unknown resource type navigates up one level; dark mode renders the list', async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('colorScheme', 'dark'));
    await signIn(page, 'alice@demo.hearth.example');
    await page.goto('/NotAType');
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/Patient?_fields=_id,_lastUpdated');
    await expect(
      main(page).getByRole('table', { name: 'Patient search results' }).locator('tbody tr').nth(5),
    ).toBeVisible();
    await page.screenshot({ path: `${shots}/console-list-dark.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    // A Patient opens its chart (chart.spec.ts); the generic Details, Edit and History tabs are a Practitioner's.
    // One whose Details show a Gender (other tests make Practitioners without one).
    const practitioner = await api(page, 'GET', 'Practitioner?gender=female,male,other,unknown&_count=1');
    await page.goto(`/Practitioner/${practitioner.entry[0].resource.id}`);
    await expect(main(page).getByRole('tab', { name: 'Details' })).toHaveAttribute('aria-selected', 'true');
    await expect(main(page).getByText('Gender', { exact: true })).toBeVisible();
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).not.toBe('rgb(255, 255, 255)');
    await page.screenshot({ path: `${shots}/console-details-dark.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    await main(page).getByRole('tab', { name: 'Edit' }).click();
    await expect(main(page).getByRole('button', { name: 'Update' })).toBeVisible();
    await page.screenshot({ path: `${shots}/console-editor-dark.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    await main(page).getByRole('tab', { name: 'History' }).click();
    await expect(main(page).getByRole('table', { name: 'History' })).toBeVisible();
    await page.screenshot({ path: `${shots}/console-history-dark.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
  });
});

/** Serious and critical axe-core findings in the console's content area (the shell is checked by its own tests). */
async function seriousViolations(page: Page): Promise<string[]> {
  await injectAxe(page);
  return page.evaluate(async () => {
    type Result = { violations: { id: string; impact: string; nodes: { target: string[] }[] }[] };
    const axe = (window as unknown as { axe: { run: (context: string) => Promise<Result> } }).axe;
    const result = await axe.run('main');
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

/** A type Ben's front-desk policy lets him read but not write. */
async function frontDeskReadOnlyType(page: Page): Promise<string> {
  const me = await page.evaluate(async () => {
    const login = JSON.parse(localStorage.getItem('hearth.activeLogin') ?? '{}');
    const response = await fetch('/auth/me', { headers: { authorization: `Bearer ${login.accessToken}` } });
    return response.json();
  });
  const entry = (me.accessPolicy?.resource ?? []).find((r: { readonly?: boolean }) => r.readonly);
  expect(entry, 'the front desk policy has a read-only entry').toBeTruthy();
  return entry.resourceType;
}
