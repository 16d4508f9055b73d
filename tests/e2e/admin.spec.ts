import { expect, test, type Page } from '@playwright/test';
import { injectAxe } from './axeInjection';
import { main, signInAs as signIn } from './consoleSupport';
import { resetLinkFor } from './signInSupport';

const shots = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';

async function seriousViolations(page: Page, context = 'main'): Promise<string[]> {
  await injectAxe(page);
  return page.evaluate(async (context) => {
    type Result = { violations: { id: string; impact: string; nodes: { target: string[] }[] }[] };
    const axe = (window as unknown as { axe: { run: (context: string) => Promise<Result> } }).axe;
    const result = await axe.run(context);
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }, context);
}

test.describe('project administration', () => {
  for (const scheme of ['light', 'dark'] as const) {
    test(`a project admin opens Admin from the user menu and reads the members (${scheme})`, async ({ page }) => {
      await page.addInitScript((value) => localStorage.setItem('colorScheme', value), scheme);
      await signIn(page, 'alice@demo.hearth.example');
      await page
        .getByRole('button', { name: /account menu|user menu/i })
        .first()
        .click();
      await page.getByRole('menuitem', { name: 'Admin' }).click();
      await expect(page).toHaveURL(/\/admin\/project$/);
      const members = main(page).getByRole('table', { name: 'Project members' });
      await expect(members).toBeVisible();
      await expect(members.getByRole('row', { name: /alice@demo\.hearth\.example/ })).toContainText('Admin');
      await expect(members.getByRole('row', { name: /ben@demo\.hearth\.example/ })).toContainText('Front desk');
      await expect(members).not.toContainText('User/');
      for (const heading of ['Client applications', 'Bots', 'Project secrets', 'Sites']) {
        await expect(main(page).getByRole('heading', { name: heading })).toBeVisible();
      }
      // The bots' memberships name their policy (from the included AccessPolicy).
      await expect(members).not.toContainText('Unnamed policy');
      await expect(main(page).getByRole('table', { name: 'Bots' })).toContainText('DoseSpot patient sync');
      await main(page).getByRole('heading', { name: 'Bots' }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${shots}/admin-project-apps-${scheme}.png` });
      await main(page).getByRole('heading', { name: 'Sites' }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${shots}/admin-project-secrets-${scheme}.png` });
      await page.screenshot({ path: `${shots}/admin-project-${scheme}.png`, fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);
      // Reloading the address serves the app, not the server's JSON 404.
      await page.reload();
      await expect(members).toBeVisible();
    });
  }

  test('the front desk has no Admin entry', async ({ page }) => {
    await signIn(page, 'ben@demo.hearth.example');
    await page
      .getByRole('button', { name: /account menu|user menu/i })
      .first()
      .click();
    await expect(page.getByRole('menuitem', { name: 'Password and security' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Admin' })).toHaveCount(0);
  });

  test('a non-admin who opens the address is told only project admins see it', async ({ page }) => {
    await signIn(page, 'ben@demo.hearth.example');
    await page.goto('/admin/project');
    await expect(main(page).getByText("Only the project's admins can see its administration.")).toBeVisible();
    await expect(main(page).getByRole('table', { name: 'Project members' })).toHaveCount(0);
  });
});

test.describe('project administration: changes', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, 'alice@demo.hearth.example');
    await page.goto('/admin/project');
    await expect(main(page).getByRole('table', { name: 'Project members' })).toBeVisible();
  });

  test('Invite: messages under the fields, then the person is added and the e-mail is in the outbox', async ({
    page,
  }) => {
    const email = `dana-${Date.now()}@demo.hearth.example`;
    await main(page).getByRole('button', { name: 'Invite', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite a person' });
    await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
    await expect(dialog.getByText('First name is required')).toBeVisible();
    await expect(dialog.getByText('Email is required')).toBeVisible();
    await dialog.getByLabel('First name').fill('Dana');
    await dialog.getByLabel('Last name').fill('Invited');
    await dialog.getByLabel('Email').fill('not-an-address');
    await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
    await expect(dialog.getByText('Enter an e-mail address')).toBeVisible();
    await expect(dialog.getByLabel('First name')).toHaveValue('Dana');
    // This server has no SMTP: the dialog says so before sending.
    await expect(dialog.getByText(/nobody receives them/)).toBeVisible();
    await dialog.getByLabel('Email').fill(email);
    await page.screenshot({ path: `${shots}/admin-invite-light.png` });
    expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);
    await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
    await expect(dialog).toHaveCount(0);
    await expect(main(page).getByRole('status').filter({ hasText: 'Dana Invited was added' })).toContainText(
      "written to the server's outbox",
    );
    const members = main(page).getByRole('table', { name: 'Project members' });
    await expect(members.getByRole('row', { name: new RegExp(email.replace(/[.]/g, '\\.')) })).toBeVisible();
    // The invitation e-mail, with its set-password link, is really in the outbox.
    expect(await resetLinkFor(email)).toMatch(/setpassword/);
  });

  test('Edit a member: a bad profile is refused under its field; an access policy is given', async ({ page }) => {
    const members = main(page).getByRole('table', { name: 'Project members' });
    // A member to edit, invited without e-mail through the dialog.
    const email = `eli-${Date.now()}@demo.hearth.example`;
    await main(page).getByRole('button', { name: 'Invite', exact: true }).click();
    const invite = page.getByRole('dialog', { name: 'Invite a person' });
    await invite.getByLabel('First name').fill('Eli');
    await invite.getByLabel('Last name').fill('Edited');
    await invite.getByLabel('Email').fill(email);
    await invite.getByLabel('Send an invitation e-mail').uncheck();
    await invite.getByRole('button', { name: 'Invite', exact: true }).click();
    const row = members.getByRole('row', { name: /Eli Edited/ });
    await expect(row).toContainText('None (full access)');

    await row.getByRole('button', { name: 'Edit Eli Edited' }).click();
    const dialog = page.getByRole('dialog', { name: /Member: Eli Edited/ });
    await dialog.getByLabel('Access policy').click();
    await page.getByRole('option', { name: 'Front desk' }).click();
    await dialog.getByLabel('Profile').fill('Device/1');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText(/The profile is a Practitioner, Patient or RelatedPerson/)).toBeVisible();
    await expect(dialog.getByLabel('Profile')).toHaveValue('Device/1');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await row.getByRole('button', { name: 'Edit Eli Edited' }).click();
    await dialog.getByLabel('Access policy').click();
    await page.getByRole('option', { name: 'Front desk' }).click();
    await page.screenshot({ path: `${shots}/admin-member-light.png` });
    expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(row).toContainText('Front desk');
  });

  test('New client: a bad redirect or launch URI is refused under its field; the secret is masked until focused', async ({
    page,
  }) => {
    const name = `Lab feed ${Date.now()}`;
    await main(page).getByRole('button', { name: 'New client' }).click();
    const dialog = page.getByRole('dialog', { name: 'New client application' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Redirect URI').fill('javascript:alert(1)');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog.getByText(/scheme "javascript:" is not allowed/)).toBeVisible();
    await expect(dialog.getByLabel('Name')).toHaveValue(name);
    await dialog.getByLabel('Redirect URI').fill('https://lab.example/callback');
    // A launch URI too is where a browser is sent: plain http to another host is refused, typed text kept.
    await dialog.getByLabel('Launch URI').fill('http://lab.example/launch');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog.getByText('Launch URI must use https (http only for localhost or 127.0.0.1)')).toBeVisible();
    await expect(dialog.getByLabel('Redirect URI')).toHaveValue('https://lab.example/callback');
    // Created without one: a launch URI would put this test's app in every chart's Apps menu.
    await dialog.getByLabel('Launch URI').fill('');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog).toHaveCount(0);
    const clients = main(page).getByRole('table', { name: 'Client applications' });
    const secret = clients.getByLabel(`Secret of ${name}`);
    await expect(secret).toHaveAttribute('type', 'password');
    await secret.focus();
    await expect(secret).toHaveAttribute('type', 'text');
    await expect(secret).toHaveValue(/^[0-9a-f]{64}$/);
    await secret.blur();
    await expect(secret).toHaveAttribute('type', 'password');
  });

  test('Bots: New bot, Deploy its code, Run it and read the result', async ({ page }) => {
    const name = `Echo bot ${Date.now()}`;
    await main(page).getByRole('button', { name: 'New bot' }).click();
    const create = page.getByRole('dialog', { name: 'New bot' });
    await create.getByLabel('Name').fill(name);
    await create.getByRole('button', { name: 'Create' }).click();
    await expect(create).toHaveCount(0);

    await main(page)
      .getByRole('button', { name: `Deploy ${name}` })
      .click();
    const deploy = page.getByRole('dialog', { name: `Deploy ${name}` });
    const code = deploy.getByLabel('Code (JavaScript)');
    await code.fill('');
    await deploy.getByRole('button', { name: 'Deploy' }).click();
    await expect(deploy.getByText("The bot's code is required")).toBeVisible();
    await code.fill('exports.handler = async (medplum, event) => ({ doubled: event.input.n * 2 });');
    await deploy.getByRole('button', { name: 'Deploy' }).click();
    await expect(deploy).toHaveCount(0);
    await expect(
      main(page)
        .getByRole('status')
        .filter({ hasText: `Deployed ${name}` }),
    ).toBeVisible();

    await main(page)
      .getByRole('button', { name: `Run ${name}` })
      .click();
    const run = page.getByRole('dialog', { name: `Run ${name}` });
    await run.getByLabel('Input', { exact: true }).fill('{"n": oops');
    await run.getByRole('button', { name: 'Run' }).click();
    await expect(run.getByText(/The input is not JSON/)).toBeVisible();
    await run.getByLabel('Input', { exact: true }).fill('{"n": 21}');
    await run.getByRole('button', { name: 'Run' }).click();
    await expect(run.getByLabel('Bot result')).toContainText('"doubled": 42');
    await page.screenshot({ path: `${shots}/admin-bot-run-light.png` });
    expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);
  });

  test('Project secrets: masked until focused, a bad name shown under its field, saved and removed', async ({
    page,
  }) => {
    const form = main(page).getByRole('form', { name: 'Project secrets' });
    await form.getByRole('button', { name: 'Add secret' }).click();
    const names = form.getByLabel(/^Secret \d+ name$/);
    const index = await names.count();
    const name = form.getByLabel(`Secret ${index} name`);
    const value = form.getByLabel(`Secret ${index} value`);
    await name.fill('BAD NAME');
    await value.fill('e2e-secret-value');
    await form.getByRole('button', { name: 'Save secrets' }).click();
    await expect(form.getByText('Name must be 1–100 letters, digits, _ . or -')).toBeVisible();
    await expect(value).toHaveValue('e2e-secret-value');
    await name.fill('E2E_SECRET');
    await form.getByRole('button', { name: 'Save secrets' }).click();
    await expect(form.getByRole('status')).toContainText('Saved');

    await page.reload();
    const stored = main(page).getByRole('form', { name: 'Project secrets' }).getByLabel(`Secret ${index} value`);
    await expect(stored).toHaveAttribute('type', 'password');
    await expect(stored).toHaveValue('e2e-secret-value');
    await stored.focus();
    await expect(stored).toHaveAttribute('type', 'text');
    const reloaded = main(page).getByRole('form', { name: 'Project secrets' });
    await reloaded.getByRole('button', { name: 'Remove secret E2E_SECRET' }).click();
    await reloaded.getByRole('button', { name: 'Save secrets' }).click();
    await expect(reloaded.getByRole('status')).toContainText('Saved');
    await page.reload();
    await expect(
      main(page).getByRole('form', { name: 'Project secrets' }).getByLabel(`Secret ${index} name`),
    ).toHaveCount(0);
  });

  test('Sites: a domain with a scheme is refused under its field; the site is saved', async ({ page }) => {
    const form = main(page).getByRole('form', { name: 'Sites' });
    await form.getByRole('button', { name: 'Add site' }).click();
    await form.getByLabel('Site 1 name').fill('Patient portal');
    await form.getByLabel('Site 1 domains').fill('https://portal.example.org/');
    await form.getByRole('button', { name: 'Save sites' }).click();
    await expect(form.getByText(/A domain is a host name/)).toBeVisible();
    await expect(form.getByLabel('Site 1 name')).toHaveValue('Patient portal');
    await form.getByLabel('Site 1 domains').fill('portal.example.org');
    await form.getByLabel('Site 1 reCAPTCHA secret key').fill('recaptcha-e2e');
    await form.getByRole('button', { name: 'Save sites' }).click();
    await expect(form.getByRole('status')).toContainText('Saved 1 site');
    await page.reload();
    const stored = main(page).getByRole('form', { name: 'Sites' });
    await expect(stored.getByLabel('Site 1 domains')).toHaveValue('portal.example.org');
    await expect(stored.getByLabel('Site 1 reCAPTCHA secret key')).toHaveAttribute('type', 'password');
  });

  test('the dialogs are axe-clean in dark, with messages under their fields', async ({ page }) => {
    await page.evaluate(() => localStorage.setItem('colorScheme', 'dark'));
    await page.reload();
    await main(page).getByRole('button', { name: 'Invite', exact: true }).click();
    const invite = page.getByRole('dialog', { name: 'Invite a person' });
    await invite.getByRole('button', { name: 'Invite', exact: true }).click();
    await expect(invite.getByText('First name is required')).toBeVisible();
    await page.screenshot({ path: `${shots}/admin-invite-dark.png` });
    expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);
    await invite.getByRole('button', { name: 'Cancel' }).click();

    await main(page).getByRole('button', { name: 'Run DoseSpot notification counts' }).click();
    const run = page.getByRole('dialog', { name: 'Run DoseSpot notification counts' });
    await run.getByLabel('Input', { exact: true }).fill('{ not json');
    await run.getByRole('button', { name: 'Run' }).click();
    await expect(run.getByText(/The input is not JSON/)).toBeVisible();
    await page.screenshot({ path: `${shots}/admin-bot-run-dark.png` });
    expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);
    await run.getByRole('button', { name: 'Close' }).click();

    const secrets = main(page).getByRole('form', { name: 'Project secrets' });
    await secrets.getByRole('button', { name: 'Add secret' }).click();
    await secrets.getByRole('button', { name: 'Save secrets' }).click();
    await expect(secrets.getByText('A value is required')).toBeVisible();
    await secrets.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/admin-secrets-dark.png` });
    expect(await seriousViolations(page)).toEqual([]);
  });
});
