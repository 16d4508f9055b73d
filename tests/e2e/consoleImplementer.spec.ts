import { expect, test, type Page } from '@playwright/test';
import { api, main, signInAs as signIn } from './consoleSupport';

/**
 * An implementer's definitions take effect in the running app: a SearchParameter or a profile
 * saved in the console changes the filters and forms of the same session, without a restart, a
 * rebuild or a reload of the page.
 */

/** Client-side navigation through the shell's type picker: the page (and its caches) stay loaded. */
async function openTypeInApp(page: Page, type: string): Promise<void> {
  const picker = page.getByRole('navigation', { name: 'Main navigation' }).getByLabel('Resource Type');
  // The picker keeps the last type chosen: clear it so typing opens the list again.
  await picker.fill('');
  await picker.fill(type);
  await page.getByRole('option', { name: type, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/${type}(\\?|$)`));
}

async function filterFieldOptions(page: Page): Promise<string[]> {
  await main(page).getByRole('button', { name: 'Filters' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Add filter' }).click();
  const rows = await dialog.getByLabel(/^Field \d+$/).count();
  await dialog.getByLabel(`Field ${rows}`).click();
  // The list fills once the type's parameters are loaded (anew after a definition was saved).
  await page.getByRole('option').first().waitFor();
  // Options read "Label (code)", as in the Fields dialog: the codes.
  const options = await page.getByRole('option').allTextContents();
  await page.keyboard.press('Escape');
  return options.map((option) => /\(([^()]+)\)$/.exec(option)?.[1] ?? option);
}

async function saveJson(page: Page, resource: unknown): Promise<void> {
  await main(page).getByRole('tab', { name: 'JSON' }).click();
  await main(page)
    .getByLabel('JSON')
    .fill(JSON.stringify(resource, null, 2));
  await main(page).getByRole('button', { name: 'Save JSON' }).click();
  await expect(page).toHaveURL(/\/details$/);
}

test.describe('implementer definitions take effect without a restart', () => {
  test('a SearchParameter saved in the console becomes a filter of the open session', async ({ page }) => {
    const code = `hearth-nickname-${Date.now()}`;
    await signIn(page, 'alice@demo.hearth.example');
    // Written for Practitioner first, so the Patient list of this session does not know it yet.
    const parameter = await api(page, 'POST', 'SearchParameter', {
      resourceType: 'SearchParameter',
      url: `https://hearth.example/SearchParameter/${code}`,
      name: 'HearthNickname',
      status: 'active',
      description: 'Nickname (given name of the nickname)',
      code,
      base: ['Practitioner'],
      type: 'string',
      expression: "Practitioner.name.where(use = 'nickname').given",
    });
    await page.goto(`/SearchParameter/${parameter.id}`);
    await expect(main(page).getByRole('tab', { name: 'Details' })).toBeVisible();

    await openTypeInApp(page, 'Patient');
    expect(await filterFieldOptions(page)).not.toContain(code);
    // Back in the browser's history (the list may have replaced its own entry with its search).
    const parameterPage = new RegExp(`/SearchParameter/${parameter.id}`);
    for (let step = 0; step < 3 && !parameterPage.test(page.url()); step++) await page.goBack();
    await expect(page).toHaveURL(parameterPage);

    // The implementer moves the parameter to Patient in the console's JSON tab.
    await saveJson(page, {
      ...parameter,
      base: ['Patient'],
      expression: "Patient.name.where(use = 'nickname').given",
    });
    const sunny = await api(page, 'POST', 'Patient', {
      resourceType: 'Patient',
      name: [
        { family: 'Implementer', given: ['Suzanne'] },
        { use: 'nickname', given: ['Sunny'] },
      ],
    });

    await openTypeInApp(page, 'Patient');
    expect(await filterFieldOptions(page)).toContain(code);
    const dialog = page.getByRole('dialog');
    const rows = await dialog.getByLabel(/^Field \d+$/).count();
    await dialog.getByLabel(`Field ${rows}`).click();
    await page.getByRole('option', { name: new RegExp(`\\(${code}\\)$`) }).click();
    await dialog.getByLabel(`Operation ${rows}`).click();
    await page.getByRole('option', { name: 'equals', exact: true }).click();
    await dialog.getByLabel(`Value ${rows}`).fill('Sunny');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect(page).toHaveURL(new RegExp(`${code}=Sunny`));
    const table = main(page).getByRole('table', { name: 'Patient search results' });
    await expect(table.locator('tbody tr')).toHaveCount(1);
    await expect(table.locator('tbody tr').getByLabel(`Select Patient/${sunny.id}`)).toBeVisible();
  });

  test('a profile saved in the console drives the editor of the open session', async ({ page }) => {
    await signIn(page, 'alice@demo.hearth.example');
    const stamp = Date.now();
    const url = `https://hearth.example/StructureDefinition/birth-registered-${stamp}`;
    const title = `Birth registered patient ${stamp}`;
    const base = (await api(page, 'GET', 'StructureDefinition?url=http://hl7.org/fhir/StructureDefinition/Patient'))
      .entry[0].resource;
    // A constraint on Patient with the base snapshot; at first nothing is changed.
    const profile = await api(page, 'POST', 'StructureDefinition', {
      resourceType: 'StructureDefinition',
      url,
      name: `BirthRegisteredPatient${stamp}`,
      title,
      status: 'active',
      kind: 'resource',
      abstract: false,
      type: 'Patient',
      baseDefinition: 'http://hl7.org/fhir/StructureDefinition/Patient',
      derivation: 'constraint',
      snapshot: base.snapshot,
    });

    await page.goto('/Patient?_count=5');
    await main(page).getByRole('button', { name: 'New...' }).click();
    await main(page).getByLabel('Profiles').fill(title);
    await page.getByRole('option', { name: title }).click();
    const birthDate = main(page).getByRole('textbox', { name: /^Birth Date\s*\*?$/ });
    await expect(birthDate).toBeVisible();
    await expect(birthDate).not.toHaveAttribute('required');

    // The implementer makes birthDate required (min 1) in the console, then opens a new Patient again.
    await page.goto(`/StructureDefinition/${profile.id}`);
    const snapshot = {
      element: profile.snapshot.element.map((element: { path: string; min?: number }) =>
        element.path === 'Patient.birthDate' ? { ...element, min: 1 } : element,
      ),
    };
    await saveJson(page, { ...profile, snapshot });

    await openTypeInApp(page, 'Patient');
    await main(page).getByRole('button', { name: 'New...' }).click();
    await main(page).getByLabel('Profiles').fill(title);
    await page.getByRole('option', { name: title }).click();
    await expect(main(page).getByRole('textbox', { name: /^Birth Date\s*\*?$/ })).toHaveAttribute('required');
  });

  test('a profile given only as a differential drives the editor; editing its differential in the JSON tab too', async ({
    page,
  }) => {
    await signIn(page, 'alice@demo.hearth.example');
    const stamp = Date.now();
    const title = `Differential patient ${stamp}`;
    const differentialOnly = (min: number) => ({
      resourceType: 'StructureDefinition',
      url: `https://hearth.example/StructureDefinition/differential-patient-${stamp}`,
      name: `DifferentialPatient${stamp}`,
      title,
      status: 'active',
      kind: 'resource',
      abstract: false,
      type: 'Patient',
      baseDefinition: 'http://hl7.org/fhir/StructureDefinition/Patient',
      derivation: 'constraint',
      differential: { element: [{ id: 'Patient.birthDate', path: 'Patient.birthDate', min }] },
    });
    // Before: the editor refused it with "StructureDefinition snapshot missing or empty".
    const profile = await api(page, 'POST', 'StructureDefinition', differentialOnly(1));
    expect(profile.snapshot.element.length).toBeGreaterThan(40);
    await page.goto('/Patient?_count=5');
    await main(page).getByRole('button', { name: 'New...' }).click();
    await main(page).getByLabel('Profiles').fill(title);
    await page.getByRole('option', { name: title }).click();
    await expect(main(page).getByRole('textbox', { name: /^Birth Date\s*\*?$/ })).toHaveAttribute('required');

    // The implementer relaxes the differential in the JSON tab, without a snapshot: the server rebuilds it.
    await page.goto(`/StructureDefinition/${profile.id}`);
    await saveJson(page, { ...differentialOnly(0), id: profile.id });
    await openTypeInApp(page, 'Patient');
    await main(page).getByRole('button', { name: 'New...' }).click();
    await main(page).getByLabel('Profiles').fill(title);
    await page.getByRole('option', { name: title }).click();
    await expect(main(page).getByRole('textbox', { name: /^Birth Date\s*\*?$/ })).toBeVisible();
    await expect(main(page).getByRole('textbox', { name: /^Birth Date\s*\*?$/ })).not.toHaveAttribute('required');
  });
});

test.describe('a big StructureDefinition in the editor', () => {
  test('US Core Patient: elements listed collapsed, one opened, edited and saved; a pasted JSON saved', async ({
    browser,
  }) => {
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    await signIn(page, 'alice@demo.hearth.example');
    const published = await api(page, 'GET', 'StructureDefinition/us-core-patient');
    const copy = {
      ...published,
      id: undefined,
      meta: undefined,
      url: `http://example.org/StructureDefinition/big-${Date.now()}`,
      name: 'BigPatientCopy',
    };
    const created = await api(page, 'POST', 'StructureDefinition', copy);
    await page.goto(`/StructureDefinition/${created.id}/edit`);
    const snapshot = main(page).getByRole('group', { name: 'Snapshot' });
    const list = snapshot.getByRole('group', { name: 'Element' });
    await expect(list.getByRole('button', { name: /^Element 1 Patient$/ })).toHaveAttribute('aria-expanded', 'false');
    // The 85 elements are lines, 25 at a time, not 5,000 inputs.
    await expect(list.getByRole('listitem')).toHaveCount(25);
    expect(await main(page).locator('form input, form textarea').count()).toBeLessThan(300);
    await list.getByRole('button', { name: /^Element 3 Patient\.meta$/ }).click();
    const short = list.getByRole('textbox', { name: 'Short' });
    await short.fill('Metadata (edited in the console)');
    await main(page).getByRole('button', { name: 'Update' }).click();
    await expect(page).toHaveURL(/\/details$/);
    const saved = await api(page, 'GET', `StructureDefinition/${created.id}`);
    expect(saved.snapshot.element[2].short).toBe('Metadata (edited in the console)');
    expect(saved.snapshot.element).toHaveLength(published.snapshot.element.length);
    expect(saved.snapshot.element[3]).toEqual(published.snapshot.element[3]);

    // Pasting the whole definition into the JSON tab: inserted at once, saved as pasted.
    await main(page).getByRole('tab', { name: 'JSON' }).click();
    const json = main(page).getByLabel('JSON');
    await page.evaluate(
      (text) => navigator.clipboard.writeText(text),
      JSON.stringify({ ...saved, title: 'Pasted title' }, null, 2),
    );
    await json.focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('ControlOrMeta+V');
    await expect(json).toHaveValue(/"title": "Pasted title"/);
    await main(page).getByRole('button', { name: 'Save JSON' }).click();
    await expect(page).toHaveURL(/\/details$/);
    expect((await api(page, 'GET', `StructureDefinition/${created.id}`)).title).toBe('Pasted title');
    await context.close();
  });

  test('a new StructureDefinition asks Abstract as Yes/No; a Task’s For opens on Patient', async ({ page }) => {
    await signIn(page, 'alice@demo.hearth.example');
    await page.goto('/StructureDefinition/new');
    const abstract = main(page).getByRole('radiogroup', { name: /^Abstract/ });
    await expect(abstract.getByRole('radio', { name: 'Yes (true)' })).not.toBeChecked();
    await expect(abstract.getByRole('radio', { name: 'No (false)' })).not.toBeChecked();
    await expect(main(page).getByText('Choose Yes or No')).toBeVisible();
    await page.goto('/Task/new');
    await expect(main(page).getByRole('combobox', { name: 'For type' })).toHaveText('Patient');
  });
});
