/**
 * The chart's patient summary sidebar as a clinician uses it (issue 15, app-spec §2.7): alice on a
 * Synthea patient of the demo clinic adds an allergy, a problem, a medication, smoking status and
 * sexual orientation, records vitals (a refused value, a one-part blood pressure) and reads the
 * trend; every save lands on the server and the summary shows it without a reload.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { api, signInAs } from './consoleSupport';
import { expectAccessible, shoot } from './signInSupport';

const alice = 'alice@demo.hearth.example';

/** A demo patient with heart-rate readings, so the trends have history to draw. */
async function syntheaPatientWithVitals(page: Page): Promise<string> {
  const bundle = await api(page, 'GET', 'Observation?code=http://loinc.org|8867-4&_count=1');
  const reference: string = bundle.entry?.[0]?.resource?.subject?.reference ?? '';
  expect(reference).toMatch(/^Patient\//);
  return reference.slice('Patient/'.length);
}

function summary(page: Page): Locator {
  return page.getByRole('complementary', { name: 'Patient summary' });
}

function section(page: Page, name: string): Locator {
  return summary(page).getByRole('region', { name });
}

test.describe('patient summary sidebar', () => {
  test.setTimeout(180_000);

  test('alice saves each modal and the summary shows it; vitals are checked, saved and drawn in their trend', async ({
    page,
  }) => {
    await signInAs(page, alice);
    const patientId = await syntheaPatientWithVitals(page);
    const before = await api(
      page,
      'GET',
      `Observation?subject=Patient/${patientId}&code=http://loinc.org|8867-4&_count=1000`,
    );
    const heartRatesBefore = (before.entry ?? []).length;

    // The summary's six searches (app-spec §7) travel in one batch with the chart's other GETs.
    const patientCalls: { url: string; body: string }[] = [];
    page.on('request', (request) => {
      const body = request.postData() ?? '';
      if (request.url().includes('/fhir/R4') && (request.url().includes(patientId) || body.includes(patientId))) {
        patientCalls.push({ url: request.url(), body });
      }
    });
    await page.goto(`/Patient/${patientId}`);
    await expect(summary(page)).toBeVisible();
    await expect(section(page, 'Vitals').getByRole('button', { name: /^Heart rate .*\d/ })).toBeVisible();
    const summaryCalls = patientCalls.filter((call) =>
      /AllergyIntolerance\?patient=/.test(decodeURIComponent(call.url + call.body)),
    );
    expect(summaryCalls).toHaveLength(1);
    for (const search of [
      'Condition?patient=',
      'MedicationRequest?subject=',
      'Observation?subject=',
      'Appointment?patient=',
      'Encounter?subject=',
    ]) {
      expect(decodeURIComponent(summaryCalls[0]!.body)).toContain(search);
    }
    test
      .info()
      .annotations.push({ type: 'chart requests naming the patient', description: String(patientCalls.length) });
    await expect(summary(page).getByRole('heading', { level: 2 })).not.toBeEmpty();
    await expect(summary(page).getByText(/\(\d+ (y|mo|d)\)$/)).toBeVisible();
    await expect(section(page, 'Vitals').getByRole('button', { name: /^Heart rate .*\d/ })).toBeVisible();
    await expectAccessible(page);

    // Allergy.
    await section(page, 'Allergies').getByRole('button', { name: 'Add allergy' }).click();
    let dialog = page.getByRole('dialog', { name: 'Add allergy' });
    await dialog.getByRole('combobox', { name: 'Allergen' }).fill('Penicillin (e2e)');
    await dialog.getByRole('textbox', { name: 'Reaction' }).fill('Hives');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Allergy added')).toBeVisible();
    await expect(
      section(page, 'Allergies').getByRole('button', { name: /^Edit allergy Penicillin \(e2e\)/ }),
    ).toContainText('Hives');

    // Problem: the Dx date starts at today; refused without one or in the future, then saved;
    // Escape keeps the typed text.
    await section(page, 'Problem List').getByRole('button', { name: 'Add problem' }).click();
    dialog = page.getByRole('dialog', { name: 'Add problem' });
    await expect(dialog.getByLabel('Dx Date')).not.toHaveValue('');
    await dialog.getByRole('combobox', { name: 'Problem' }).fill('Essential hypertension (e2e)');
    await dialog.getByLabel('Dx Date').fill('2099-01-01');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('Dx Date cannot be in the future')).toBeVisible();
    await dialog.getByLabel('Dx Date').fill('');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('Dx Date is required')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await section(page, 'Problem List').getByRole('button', { name: 'Add problem' }).click();
    await expect(dialog.getByRole('combobox', { name: 'Problem' })).toHaveValue('Essential hypertension (e2e)');
    await dialog.getByLabel('Dx Date').fill('2021-06-01');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Problem added')).toBeVisible();
    await expect(
      section(page, 'Problem List').getByRole('button', { name: /^Edit problem Essential hypertension \(e2e\)/ }),
    ).toContainText('Dx 1 Jun 2021');

    // Medication: status starts active (as allergies and problems do), requester is alice's profile.
    await section(page, 'Medications').getByRole('button', { name: 'Add medication' }).click();
    dialog = page.getByRole('dialog', { name: 'Add medication' });
    await dialog.getByRole('combobox', { name: 'Medication' }).fill('Lisinopril 10 mg (e2e)');
    await expect(dialog.getByRole('combobox', { name: /Status/ })).toHaveText(/active/);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Medication added')).toBeVisible();
    await expect(
      section(page, 'Medications').getByRole('button', { name: /^Edit medication Lisinopril 10 mg \(e2e\)/ }),
    ).toBeVisible();
    const meds = await api(page, 'GET', `MedicationRequest?subject=Patient/${patientId}&_sort=-_lastUpdated&_count=1`);
    const med = meds.entry[0].resource;
    expect(med.intent).toBe('order');
    expect(med.requester.reference).toMatch(/^Practitioner\//);

    // Smoking status and sexual orientation: one choice, saved final.
    await section(page, 'Smoking Status').getByRole('button', { name: 'Edit smoking status' }).click();
    dialog = page.getByRole('dialog', { name: 'Smoking Status' });
    await dialog.getByRole('radio', { name: 'Ex-smoker' }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Smoking status saved')).toBeVisible();
    await expect(section(page, 'Smoking Status')).toContainText('Ex-smoker');
    await section(page, 'Sexual Orientation').getByRole('button', { name: 'Edit sexual orientation' }).click();
    dialog = page.getByRole('dialog', { name: 'Sexual Orientation' });
    await dialog.getByRole('radio', { name: 'Heterosexual' }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Sexual orientation saved')).toBeVisible();
    await expect(section(page, 'Sexual Orientation')).toContainText('Heterosexual');
    const smoking = await api(
      page,
      'GET',
      `Observation?subject=Patient/${patientId}&code=http://loinc.org|72166-2&_sort=-_lastUpdated&_count=1`,
    );
    expect(smoking.entry[0].resource.status).toBe('final');

    // Vitals: a value that is not a number is refused under its field; nothing is posted.
    await section(page, 'Vitals').getByRole('button', { name: 'Record vitals' }).click();
    dialog = page.getByRole('dialog', { name: 'Record vitals' });
    await dialog.getByRole('textbox', { name: 'Heart rate' }).fill('fast');
    await dialog.getByRole('textbox', { name: 'Systolic BP' }).fill('131');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('Enter a number, e.g. 72 or 37.5')).toBeVisible();
    await expect(dialog.getByRole('textbox', { name: 'Heart rate' })).toHaveAttribute('aria-invalid', 'true');
    await shoot(page, 'chart-summary-vitals-refused');
    const afterRefusal = await api(
      page,
      'GET',
      `Observation?subject=Patient/${patientId}&code=http://loinc.org|8867-4&_count=1000`,
    );
    expect((afterRefusal.entry ?? []).length).toBe(heartRatesBefore);

    // Impossible values are refused under their fields too (the QA walk saved an oxygen saturation of 140 % and 98.6 °C).
    await dialog.getByRole('textbox', { name: 'Heart rate' }).fill('177');
    await dialog.getByRole('textbox', { name: 'Oxygen saturation' }).fill('140');
    await dialog.getByRole('textbox', { name: 'Temperature' }).fill('98.6');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('Oxygen saturation must be between 50 and 100 %')).toBeVisible();
    await expect(dialog.getByText('Temperature 98.6 looks like °F: enter °C (37.0)')).toBeVisible();
    await expect(dialog.getByRole('textbox', { name: 'Systolic BP' })).toHaveValue('131');
    await dialog.getByRole('textbox', { name: 'Oxygen saturation' }).fill('');
    await dialog.getByRole('textbox', { name: 'Temperature' }).fill('');

    // Fixed: heart rate and a blood pressure with only its systolic part.
    await dialog.getByRole('textbox', { name: 'Heart rate' }).fill('177');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Vitals saved (2)')).toBeVisible();
    await expect(dialog).toBeHidden();
    const heartRow = section(page, 'Vitals').getByRole('button', { name: /^Heart rate .*177 \/min/ });
    await expect(heartRow).toBeVisible();
    await expect(heartRow.getByRole('img', { name: /^Heart rate trend: .*177$/ })).toBeVisible();
    await expect(heartRow).toContainText('High');
    await expect(section(page, 'Vitals').getByRole('button', { name: /^Blood pressure .*131\/– mmHg/ })).toBeVisible();

    const bp = await api(
      page,
      'GET',
      `Observation?subject=Patient/${patientId}&code=http://loinc.org|85354-9&_sort=-_lastUpdated&_count=1`,
    );
    const panel = bp.entry[0].resource;
    expect(panel.status).toBe('preliminary');
    expect(panel.category[0].coding[0].code).toBe('vital-signs');
    expect(panel.component).toHaveLength(1);
    expect(panel.component[0].code.coding[0].code).toBe('8480-6');
    expect(panel.component[0].valueQuantity).toMatchObject({ value: 131, code: 'mm[Hg]' });

    // The trend: the chart (loaded on demand) and the readings, newest first.
    await heartRow.click();
    const trend = page.getByRole('dialog', { name: 'Heart rate over time' });
    await expect(trend).toContainText('Reference range (adult) — Heart rate: 60–100 /min');
    await expect(trend.locator('svg .MuiLineChart-root, svg path').first()).toBeVisible();
    await expect(trend.getByRole('table', { name: 'Heart rate readings' }).getByRole('row').nth(1)).toContainText(
      '177 /min',
    );
    await expectAccessible(page);
    await shoot(page, 'chart-summary-trend');
    await page.keyboard.press('Escape');
    await expect(trend).toBeHidden();

    // The whole sidebar in one picture: a taller window, scrolled to the top.
    await page.setViewportSize({ width: 1280, height: 1700 });
    await page.evaluate(() => {
      window.scrollTo(0, 0);
      document.querySelectorAll('main, main *').forEach((element) => element.scrollTo?.(0, 0));
    });
    await shoot(page, 'chart-summary');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page);
    await page.emulateMedia({ colorScheme: 'light' });
  });
});
