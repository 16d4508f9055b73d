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

test('Run → Close → Deploy leaves no second Deploy dialog that would put the old code back', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAs(page, 'alice@demo.hearth.example');
  await page.goto('/admin/project');
  const name = `Greeter QA ${Date.now()}`;
  await main(page).getByRole('button', { name: 'New bot' }).click();
  const create = page.getByRole('dialog', { name: 'New bot' });
  await create.getByLabel('Name').fill(name);
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(
    main(page)
      .getByRole('status')
      .filter({ hasText: `Created the bot ${name}` }),
  ).toBeVisible();
  await page.reload();

  await main(page)
    .getByRole('button', { name: `Run ${name}` })
    .click();
  const run = page.getByRole('dialog', { name: `Run ${name}` });
  await run.getByRole('button', { name: 'Close' }).click();
  await expect(run).toBeHidden();
  await main(page)
    .getByRole('button', { name: `Deploy ${name}` })
    .click();
  const deploy = page.getByRole('dialog', { name: `Deploy ${name}` });
  const code = deploy.getByLabel('Code (JavaScript)');
  await code.fill('exports.handler = async () => "second";');
  await deploy.getByRole('button', { name: 'Deploy' }).click();
  await expect(
    main(page)
      .getByRole('status')
      .filter({ hasText: `Deployed ${name}` }),
  ).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('after-deploy.png') });

  // What was deployed is what the dialog shows next, and what the bot runs.
  await main(page)
    .getByRole('button', { name: `Deploy ${name}` })
    .click();
  await expect(code).toHaveValue('exports.handler = async () => "second";');
  await deploy.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await main(page)
    .getByRole('button', { name: `Run ${name}` })
    .click();
  await run.getByRole('button', { name: 'Run' }).click();
  await expect(run.getByLabel('Bot result')).toContainText('second');
});

test('a patient invited without a policy shows the default patient access; the super admin shows an e-mail', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAs(page, 'alice@demo.hearth.example');
  await page.goto('/admin/project');
  const members = main(page).getByRole('table', { name: 'Project members' });
  await expect(members.getByRole('row', { name: /Super Admin/ })).toContainText('admin@example.com');
  await expect(members.getByRole('row', { name: /Super Admin/ })).toContainText(
    'Profile e-mail (server administrator)',
  );

  await main(page).getByRole('button', { name: 'Invite', exact: true }).click();
  const invite = page.getByRole('dialog', { name: 'Invite a person' });
  await invite.getByLabel('Role').click();
  await page.getByRole('option', { name: 'Patient' }).click();
  await expect(invite.getByText(/None: as a patient, the project's default patient policy/)).toBeVisible();
  const stamp = Date.now();
  await invite.getByLabel('First name').fill('Paula');
  await invite.getByLabel('Last name').fill(`Patient${stamp}`);
  await invite.getByLabel('Email').fill(`paula.${stamp}@e2e.hearth.example`);
  await invite.getByLabel('Send an invitation e-mail').uncheck();
  await page.screenshot({ path: test.info().outputPath('invite-patient.png') });
  await invite.getByRole('button', { name: 'Invite', exact: true }).click();
  const row = members.getByRole('row', { name: new RegExp(`Patient${stamp}`) });
  await expect(row).toContainText('Patient portal (project default for patients)');
  await expect(row).not.toContainText('full access');
  await page.screenshot({ path: test.info().outputPath('members.png'), fullPage: true });
});
