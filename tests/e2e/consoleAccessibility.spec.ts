import { expect, test, type Page } from '@playwright/test';
import { collectErrors, expectAccessible } from './signInSupport';
import { signInAs } from './consoleSupport';

/**
 * axe-core on whole pages of the resource console (header, navigation and content), in light and
 * dark: details, editor, history, JSON, a version page, a new Observation and the DiagnosticReport view.
 */

async function firstId(page: Page, search: string): Promise<string> {
  return page.evaluate(async (search) => {
    const login = JSON.parse(localStorage.getItem('hearth.activeLogin') ?? '{}');
    const response = await fetch(`/fhir/R4/${search}`, { headers: { authorization: `Bearer ${login.accessToken}` } });
    const bundle = (await response.json()) as { entry?: { resource: { id: string } }[] };
    return bundle.entry?.[0]?.resource.id ?? '';
  }, search);
}

async function expectAccessibleInBothSchemes(page: Page): Promise<void> {
  await page.emulateMedia({ colorScheme: 'light' });
  await expectAccessible(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect
    .poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor))
    .not.toBe('rgb(255, 255, 255)');
  await expectAccessible(page);
  await page.emulateMedia({ colorScheme: 'light' });
}

test.describe('resource console accessibility (whole page)', () => {
  // A Patient opens the chart (chart.spec.ts checks its accessibility); the generic pages are a Practitioner's.
  test('details, edit, history, JSON and version pages of a Practitioner', async ({ page }) => {
    test.setTimeout(120_000);
    const errors = collectErrors(page);
    await signInAs(page, 'alice@demo.hearth.example');
    const id = await firstId(page, 'Practitioner?_count=1&_sort=_lastUpdated');
    expect(id).not.toBe('');

    await page.goto(`/Practitioner/${id}/details`);
    await expect(page.getByRole('main').getByRole('tab', { name: 'Details', selected: true })).toBeVisible();
    await expectAccessibleInBothSchemes(page);

    await page.goto(`/Practitioner/${id}/edit`);
    await expect(page.getByRole('main').getByRole('button', { name: 'Update' })).toBeVisible();
    await expectAccessibleInBothSchemes(page);

    await page.goto(`/Practitioner/${id}/history`);
    const history = page.getByRole('main').getByRole('table');
    await expect(history.getByRole('columnheader', { name: 'Author' })).toBeVisible();
    await expectAccessibleInBothSchemes(page);

    await history.getByRole('link').first().click();
    await expect(page).toHaveURL(/\/_history\/[^/]+$/);
    await expectAccessibleInBothSchemes(page);

    await page.goto(`/Practitioner/${id}/json`);
    await expect(page.getByRole('main').getByLabel('JSON')).toBeVisible();
    await expectAccessibleInBothSchemes(page);
    expect(errors).toEqual([]);
  });

  test('a new Observation and a DiagnosticReport', async ({ page }) => {
    test.setTimeout(120_000);
    const errors = collectErrors(page);
    await signInAs(page, 'alice@demo.hearth.example');
    await page.goto('/Observation/new');
    await expect(page.getByRole('main').getByRole('button', { name: 'Create' })).toBeVisible();
    await expectAccessibleInBothSchemes(page);

    const report = await firstId(page, 'DiagnosticReport?_count=1');
    expect(report).not.toBe('');
    await page.goto(`/DiagnosticReport/${report}`);
    await expect(page.getByRole('main').getByText('Issued').first()).toBeVisible();
    await expectAccessibleInBothSchemes(page);
    expect(errors).toEqual([]);
  });

  test('a big StructureDefinition with an element open, a new StructureDefinition (Yes/No) and a new Task', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const errors = collectErrors(page);
    await signInAs(page, 'alice@demo.hearth.example');
    await page.goto('/StructureDefinition/us-core-patient/edit');
    const elements = page
      .getByRole('main')
      .getByRole('group', { name: 'Snapshot' })
      .getByRole('group', { name: 'Element' });
    await elements.getByRole('button', { name: /^Element 3 / }).click();
    await expect(elements.getByRole('textbox', { name: 'Short' })).toBeVisible();
    await expectAccessibleInBothSchemes(page);

    await page.goto('/StructureDefinition/new');
    await expect(page.getByRole('main').getByRole('radiogroup', { name: /^Abstract/ })).toBeVisible();
    await expectAccessibleInBothSchemes(page);

    await page.goto('/Task/new');
    await expect(page.getByRole('main').getByRole('combobox', { name: 'For type' })).toHaveText('Patient');
    await expectAccessibleInBothSchemes(page);
    expect(errors).toEqual([]);
  });
});
