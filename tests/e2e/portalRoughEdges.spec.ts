import { expect, test } from '@playwright/test';
import { signInAs } from './consoleSupport';

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
