import { expect, test, type Page } from '@playwright/test';
import { injectAxe } from './axeInjection';
import { main, signInAs as signIn } from './consoleSupport';

const shots = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';

async function seriousViolations(page: Page): Promise<string[]> {
  await injectAxe(page);
  return page.evaluate(async () => {
    type Result = { violations: { id: string; impact: string; nodes: { target: string[] }[] }[] };
    const axe = (window as unknown as { axe: { run: (context: string) => Promise<Result> } }).axe;
    const result = await axe.run('main');
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
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
});
