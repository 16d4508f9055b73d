import { expect, test, type Locator, type Page } from '@playwright/test';
import { collectErrors, expectAccessible, shoot } from './signInSupport';
import { main, rawApi, signInAs as signIn } from './consoleSupport';

// Profiles in the resource editor (issue #7): a US Core blood pressure Observation with its slices as
// their own inputs, and a slice cardinality issue under its slice. Own data only (the spec files share
// one demo database in a run).
const bpUrl = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-blood-pressure';
const loinc = 'http://loinc.org';
const mmHg = { value: 0, unit: 'mm[Hg]', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' };

/** A slice's group in the editor (a fieldset named by the slice). */
function slice(page: Page, name: string): Locator {
  return main(page).getByRole('group', { name, exact: true });
}

/** Scrolls the element to the top of the window, below the shell's app bar (for the screenshots). */
async function scrollToTop(locator: Locator): Promise<void> {
  await locator.evaluate((element) => {
    element.scrollIntoView({ block: 'start' });
    // The window or the layout's scroll container: whichever scrolled, give back the app bar's height.
    window.scrollBy(0, -80);
    let parent = element.parentElement;
    while (parent && parent.scrollHeight <= parent.clientHeight) parent = parent.parentElement;
    parent?.scrollBy(0, -80);
  });
}

async function closeToasts(page: Page): Promise<void> {
  for (const close of await page.getByRole('button', { name: 'Close notification' }).all()) await close.click();
}

async function chooseProfile(page: Page, title: string): Promise<void> {
  // The picker searches the server by title or name (a type can have more than the 10 it lists).
  await main(page).getByLabel('Profiles').fill(title);
  // An option reads its title, then its url.
  await page.getByRole('option', { name: new RegExp(`^${title}\\s*https?://`) }).click();
}

test.describe('profiles in the resource editor', () => {
  test('a US Core blood pressure Observation: slices pre-filled from the Profiles picker, created, edited, patched, in history, deleted', async ({
    page,
  }) => {
    const errors = collectErrors(page);
    await signIn(page, 'alice@demo.hearth.example');
    const patient = await rawApi(page, 'POST', 'Patient', { resourceType: 'Patient', name: [{ family: 'Slicewell' }] });
    expect(patient.status).toBe(201);

    await page.goto('/Observation/new');
    await chooseProfile(page, 'US Core Blood Pressure Profile');
    const systolic = slice(page, 'Systolic');
    const diastolic = slice(page, 'Diastolic');
    await expect(systolic).toBeVisible();
    await expect(diastolic).toBeVisible();
    // Required (1..1): no remove and no add; the code is fixed by the profile.
    await expect(systolic.getByText('Systolic *')).toBeVisible();
    await expect(systolic.getByText('Code: fixed by the profile').first()).toBeVisible();
    await expect(systolic.getByRole('textbox', { name: 'System', exact: true })).toBeDisabled();
    await expect(systolic.getByRole('button', { name: /Remove Systolic/ })).toHaveCount(0);
    await expect(systolic.getByRole('button', { name: /Add Systolic/ })).toHaveCount(0);
    await expect(slice(page, 'VSCat').getByText(/Coding.*fixed by the profile/)).toBeVisible();

    await main(page).getByLabel('Status').fill('final');
    await main(page).getByRole('textbox', { name: 'Effective', exact: true }).fill('2024-05-01');
    const subjectType = main(page).getByLabel('Subject type');
    if ((await subjectType.count()) > 0) {
      await subjectType.click();
      await page.getByRole('option', { name: 'Patient', exact: true }).click();
    }
    await main(page).getByRole('combobox', { name: 'Subject', exact: true }).fill('Slicewell');
    await page.getByRole('option').first().click();
    await systolic.getByRole('spinbutton', { name: 'Value' }).fill('121');
    await systolic.getByRole('textbox', { name: 'Unit', exact: true }).fill('mm[Hg]');
    await diastolic.getByRole('spinbutton', { name: 'Value' }).fill('79');
    await diastolic.getByRole('textbox', { name: 'Unit', exact: true }).fill('mm[Hg]');
    await scrollToTop(main(page).getByRole('group', { name: 'Component', exact: true }));
    await shoot(page, 'console-editor-slices');
    await expectAccessible(page);

    await main(page).getByRole('button', { name: 'Create' }).click();
    await expect(page).toHaveURL(/\/Observation\/[0-9a-f-]+\/details$/);
    const id = page.url().split('/')[4];
    const created = (await rawApi(page, 'GET', `Observation/${id}`)).body;
    expect(created.meta.profile).toContain(bpUrl);
    expect(created.code.coding[0]).toEqual({ system: loinc, code: '85354-9' });
    expect(created.category[0].coding[0].code).toBe('vital-signs');
    expect(created.subject.reference).toBe(`Patient/${patient.body.id}`);
    expect(created.component).toEqual([
      { code: { coding: [{ system: loinc, code: '8480-6' }] }, valueQuantity: { ...mmHg, value: 121 } },
      { code: { coding: [{ system: loinc, code: '8462-4' }] }, valueQuantity: { ...mmHg, value: 79 } },
    ]);

    // Edit: the stored resource's meta.profile chooses the form; the systolic value changes in place.
    await main(page).getByRole('tab', { name: 'Edit' }).click();
    await expect(main(page).getByLabel('Profiles')).toHaveValue('US Core Blood Pressure Profile');
    await slice(page, 'Systolic').getByRole('spinbutton', { name: 'Value' }).fill('125');
    await main(page).getByRole('button', { name: 'Update' }).click();
    await expect(page).toHaveURL(new RegExp(`/Observation/${id}/details$`));
    await expect
      .poll(async () => (await rawApi(page, 'GET', `Observation/${id}`)).body.meta.versionId)
      .not.toBe(created.meta.versionId);
    const updated = (await rawApi(page, 'GET', `Observation/${id}`)).body;
    expect(updated.component[0].valueQuantity.value).toBe(125);
    expect(updated.component[1]).toEqual(created.component[1]);

    // Patch: the diastolic value through More actions → Patch (a JSON Patch guarded by the version).
    await main(page).getByRole('tab', { name: 'Edit' }).click();
    await slice(page, 'Diastolic').getByRole('spinbutton', { name: 'Value' }).fill('82');
    await main(page).getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Patch' }).click();
    await expect(page).toHaveURL(new RegExp(`/Observation/${id}/details$`));
    await expect
      .poll(async () => (await rawApi(page, 'GET', `Observation/${id}`)).body.component[1].valueQuantity.value)
      .toBe(82);
    const patched = (await rawApi(page, 'GET', `Observation/${id}`)).body;
    expect(patched.component[0]).toEqual(updated.component[0]);

    // History: three versions.
    await main(page).getByRole('tab', { name: 'History' }).click();
    await expect(main(page).getByRole('table', { name: 'History' }).locator('tbody tr')).toHaveCount(3);

    // Delete after confirmation.
    await main(page).getByRole('tab', { name: 'Edit' }).click();
    await main(page).getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(/\/Observation(\?.*)?$/);
    expect((await rawApi(page, 'GET', `Observation/${id}`)).status).toBe(410);
    expect(errors).toEqual([]);
  });

  test('a slice below its min is reported under the slice, and adding the slice fixes it', async ({ page }) => {
    await signIn(page, 'alice@demo.hearth.example');
    const patient = await rawApi(page, 'POST', 'Patient', {
      resourceType: 'Patient',
      name: [{ family: 'Halfpressure' }],
    });
    // A base Observation with only the systolic component: valid as an Observation, not as US Core BP.
    const observation = await rawApi(page, 'POST', 'Observation', {
      resourceType: 'Observation',
      status: 'final',
      category: [
        { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }] },
      ],
      code: { coding: [{ system: loinc, code: '85354-9' }] },
      subject: { reference: `Patient/${patient.body.id}` },
      effectiveDateTime: '2024-05-02',
      component: [{ code: { coding: [{ system: loinc, code: '8480-6' }] }, valueQuantity: { ...mmHg, value: 130 } }],
    });
    expect(observation.status).toBe(201);
    const id = observation.body.id as string;

    await page.goto(`/Observation/${id}/edit`);
    await chooseProfile(page, 'US Core Blood Pressure Profile');
    const diastolic = slice(page, 'Diastolic');
    await expect(diastolic.getByText('(none)')).toBeVisible();
    await expect(slice(page, 'Systolic').getByRole('spinbutton', { name: 'Value' })).toHaveValue('130');
    await main(page).getByRole('button', { name: 'Update' }).click();
    await expect(diastolic.getByText('Slice diastolic: at least 1 required, found 0')).toBeVisible();
    await expect(slice(page, 'Systolic').getByText(/at least 1 required/)).toHaveCount(0);
    // Nothing was written.
    expect((await rawApi(page, 'GET', `Observation/${id}`)).body.meta.versionId).toBe(observation.body.meta.versionId);
    await closeToasts(page);
    await scrollToTop(diastolic);
    await shoot(page, 'console-editor-slices-error');

    await diastolic.getByRole('button', { name: 'Add Diastolic' }).click();
    await diastolic.getByRole('spinbutton', { name: 'Value' }).fill('85');
    await diastolic.getByRole('textbox', { name: 'Unit', exact: true }).fill('mm[Hg]');
    await main(page).getByRole('button', { name: 'Update' }).click();
    await expect(page).toHaveURL(new RegExp(`/Observation/${id}/details$`));
    const saved = (await rawApi(page, 'GET', `Observation/${id}`)).body;
    expect(saved.meta.profile).toEqual([bpUrl]);
    expect(saved.component.map((c: { code: { coding: { code: string }[] } }) => c.code.coding[0].code)).toEqual([
      '8480-6',
      '8462-4',
    ]);
  });

  test('US Core Patient extensions: each slice its own input with the url fixed, race with its nested slices', async ({
    page,
  }) => {
    await signIn(page, 'alice@demo.hearth.example');
    await page.goto('/Patient/new');
    await chooseProfile(page, 'US Core Patient Profile');
    const race = slice(page, 'Race');
    await race.getByRole('button', { name: 'Add Race' }).click();
    // A new race extension starts with its required text slice; its url is fixed by the profile.
    await expect(race.getByRole('textbox', { name: 'Url', exact: true }).first()).toHaveValue(
      'http://hl7.org/fhir/us/core/StructureDefinition/us-core-race',
    );
    await expect(race.getByRole('textbox', { name: 'Url', exact: true }).first()).toBeDisabled();
    const text = race.getByRole('group', { name: 'Text', exact: true });
    await expect(text.getByText('Text *')).toBeVisible();
    await text.getByRole('textbox', { name: 'Value', exact: true }).fill('Mixed');
    await expect(race.getByRole('group', { name: 'Omb Category', exact: true }).getByText('(0..5)')).toBeVisible();
    await slice(page, 'Birthsex').getByRole('button', { name: 'Add Birthsex' }).click();
    await expect(slice(page, 'Birthsex').getByRole('button', { name: 'Add Birthsex' })).toHaveCount(0);
    await scrollToTop(main(page).getByRole('group', { name: 'Extension', exact: true }).first());
    await shoot(page, 'console-editor-slices-extensions');
    await expectAccessible(page);
  });
});
