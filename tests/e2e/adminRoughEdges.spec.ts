import { expect, test } from '@playwright/test';
import { main, signInAs } from './consoleSupport';

/**
 * Rough edges of the project administration screen found by using it: a dialog dismissed by a
 * click beside it or Escape keeps what was typed (Cancel discards it).
 */

test('an invitation typed into the Invite dialog survives Escape and a click beside it; Cancel discards it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await signInAs(page, 'alice@demo.hearth.example');
  await page.goto('/admin/project');
  await expect(main(page).getByRole('table', { name: 'Project members' })).toBeVisible();

  const invite = main(page).getByRole('button', { name: 'Invite', exact: true });
  const dialog = page.getByRole('dialog', { name: 'Invite a person' });
  await invite.click();
  await dialog.getByLabel('First name').fill('Zed');
  await dialog.getByLabel('Last name').fill('Zebra');
  await dialog.getByLabel('Email').fill('zed.zebra@e2e.hearth.example');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await invite.click();
  await expect(dialog.getByLabel('First name')).toHaveValue('Zed');
  await expect(dialog.getByLabel('Email')).toHaveValue('zed.zebra@e2e.hearth.example');
  // A click on the backdrop, beside the dialog.
  await page.mouse.click(5, 760);
  await expect(dialog).toBeHidden();

  await invite.click();
  await expect(dialog.getByLabel('Last name')).toHaveValue('Zebra');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await invite.click();
  await expect(dialog.getByLabel('First name')).toHaveValue('');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
});

test('code typed into a bot’s Deploy dialog survives Escape', async ({ page }) => {
  await signInAs(page, 'alice@demo.hearth.example');
  await page.goto('/admin/project');
  const deploy = main(page).getByRole('button', { name: 'Deploy DoseSpot iframe' });
  await deploy.click();
  const dialog = page.getByRole('dialog', { name: 'Deploy DoseSpot iframe' });
  const code = dialog.getByLabel('Code (JavaScript)');
  await code.fill('exports.handler = async () => "draft, not deployed";');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await deploy.click();
  await expect(code).toHaveValue('exports.handler = async () => "draft, not deployed";');
  // Cancel goes back to the deployed code; nothing was deployed.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await deploy.click();
  await expect(code).not.toHaveValue(/draft, not deployed/);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
});
