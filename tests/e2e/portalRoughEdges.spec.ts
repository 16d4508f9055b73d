import { expect, test } from '@playwright/test';
import { api, apiStatus, signInAs } from './consoleSupport';

/** The patient portal has no user menu: its header must lead the patient to their account settings. */
test('a patient reaches Password and security from the portal header', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await signInAs(page, 'patient@demo.hearth.example');
  const nav = page.getByRole('navigation', { name: 'Patient portal' });
  await nav.getByRole('link', { name: 'Password and security' }).click();
  await expect(page).toHaveURL(/\/security$/);
  await expect(page.getByRole('heading', { name: 'Password and security', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Change password' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Active sessions' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Password and security' })).toHaveAttribute('aria-current', 'page');
});

/** A record the patient opens from their own chart: the care team's tasks about it are not part of it. */
test('a patient opening an order of theirs sees the order, not the care team’s tasks about it', async ({
  page,
  browser,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAs(page, 'patient@demo.hearth.example');
  const patient = await page.evaluate(
    () => JSON.parse(localStorage.getItem('hearth.activeLogin') ?? '{}').profile?.reference as string,
  );
  expect(patient).toMatch(/^Patient\//);

  // The care team's tasks are theirs: only a clinician finds them (the patient's policy refuses them).
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const clinician = await context.newPage();
    await signInAs(clinician, 'alice@demo.hearth.example');
    const tasks = await api(clinician, 'GET', `Task?patient=${patient}&_count=50`);
    const task = (tasks.entry ?? [])
      .map((entry: { resource: { focus?: { reference?: string }; for?: { reference?: string } } }) => entry.resource)
      .find((resource: { focus?: { reference?: string } }) => resource.focus?.reference?.startsWith('ServiceRequest/'));
    expect(task, 'the demo gives the patient account an order with a task about it').toBeTruthy();
    expect([403, 404]).toContain(await apiStatus(page, 'GET', `Task/${task.id}`));

    await page.goto(`/${task.for.reference}/${task.focus.reference}`);
    await expect(page.getByRole('tab', { name: 'Details' })).toBeVisible();
    await expect(page.getByText('Status').first()).toBeVisible();
    await expect(page.getByRole('heading', { name: /^Tasks \(/ })).toHaveCount(0);

    // The care team sees them on the same record.
    await clinician.goto(`/${task.for.reference}/${task.focus.reference}`);
    await expect(clinician.getByRole('heading', { name: /^Tasks \(\d+\)/ })).toBeVisible();
  } finally {
    await context.close();
  }
});
