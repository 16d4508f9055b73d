import { expect, test, type Page } from '@playwright/test';
import { api, main, openPatient, signInAs } from './consoleSupport';

/**
 * DoseSpot configured but not reachable from the server (as from this machine, which has no
 * internet): the e-prescribing page says so in words and never frames the browser's error page.
 * The project's secrets are put back as they were (chat.spec.ts expects "not configured").
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- FHIR answers of many shapes

const doseSpotSecretNames = [
  'DOSESPOT_CLINIC_ID',
  'DOSESPOT_CLINIC_KEY',
  'DOSESPOT_SUBSCRIPTION_KEY',
  'DOSESPOT_BASE_URL',
];

async function saveDoseSpotSecrets(page: Page, doseSpot: { name: string; valueString: string }[]): Promise<void> {
  const projects = await api(page, 'GET', 'Project');
  const project = projects.entry[0].resource as Json;
  const others = ((project.secret ?? []) as Json[]).filter((secret) => !doseSpotSecretNames.includes(secret.name));
  await api(page, 'PUT', `Project/${project.id}`, { ...project, secret: [...others, ...doseSpot] });
}

test('DoseSpot that cannot be reached is said in words, on /dosespot and on the chart’s tab', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await signInAs(page, 'alice@demo.hearth.example');
  await saveDoseSpotSecrets(page, [
    { name: 'DOSESPOT_CLINIC_ID', valueString: '1234' },
    { name: 'DOSESPOT_CLINIC_KEY', valueString: 'an-unusable-clinic-key-for-this-test' },
    { name: 'DOSESPOT_SUBSCRIPTION_KEY', valueString: 'sub' },
    // A name that never resolves (RFC 2606), so the bots' fetch fails as with no internet.
    { name: 'DOSESPOT_BASE_URL', valueString: 'https://my.dosespot.invalid/' },
  ]);
  try {
    await page.goto('/dosespot');
    const error = main(page).getByTestId('eprescribing-error');
    await expect(error).toContainText('DoseSpot cannot be reached from here', { timeout: 20_000 });
    await expect(error).toContainText('my.dosespot.invalid');
    await expect(error).not.toContainText('deploy-dosespot');
    await expect(main(page).getByTestId('eprescribing-frame')).toHaveCount(0);
    await expect(error.getByRole('button', { name: 'Try again' })).toBeVisible();

    await openPatient(page);
    // At 1024 px the chart's last tabs, DoseSpot among them, are under its More menu.
    await page.getByRole('button', { name: 'More tabs' }).click();
    await page.getByRole('menuitem', { name: 'DoseSpot' }).click();
    await expect(error).toContainText('DoseSpot cannot be reached from here', { timeout: 20_000 });
    await expect(main(page).getByTestId('eprescribing-frame')).toHaveCount(0);
  } finally {
    await saveDoseSpotSecrets(page, []);
  }
});
