import { expect, test, type Locator, type Page } from '@playwright/test';
import { injectAxe } from './axeInjection';
import { openPatient, signInAs } from './consoleSupport';
import { collectErrors } from './signInSupport';

/**
 * The chart's tab bar where the chart is narrow: beside the open navigation and the patient
 * sidebar at 1024 and 1280 px. Every tab is in sight or named under "More" without scrolling the
 * bar; the active tab is always in the bar; light and dark pass axe.
 */

const specTabs = [
  'Timeline',
  'Edit',
  'Encounter',
  'Tasks',
  'Meds',
  'Labs',
  'Devices',
  'Reports',
  'Documents',
  'Appointments',
  'Care Plans',
  'Communications',
  'DoseSpot',
];

const chartTabs = (page: Page) => page.getByRole('tablist', { name: 'Chart tabs' });
const moreButton = (page: Page) => page.getByRole('button', { name: 'More tabs' });

/**
 * Each tab wholly inside the bar and the window (none behind a scroll arrow), on at most two rows.
 * The bar lays itself out again while the chart's data arrives (the page's scroll bar comes and
 * goes with the summary's height, and a tab moves between the bar and More), so it is measured
 * again until a whole measurement holds.
 */
async function expectTabsInSight(page: Page): Promise<void> {
  await expect(async () => {
    const list = chartTabs(page);
    const bar = (await list.boundingBox({ timeout: 2000 }))!;
    const viewport = page.viewportSize()!;
    const rows = new Set<number>();
    for (const tab of await list.getByRole('tab').all()) {
      const box = (await tab.boundingBox({ timeout: 2000 }))!;
      const name = await tab.textContent({ timeout: 2000 });
      expect(box, `${name} is laid out`).not.toBeNull();
      expect(box.x, `${name} starts inside the bar`).toBeGreaterThanOrEqual(bar.x - 0.5);
      expect(box.x + box.width, `${name} ends inside the bar`).toBeLessThanOrEqual(bar.x + bar.width + 0.5);
      expect(box.x + box.width, `${name} ends inside the window`).toBeLessThanOrEqual(viewport.width);
      // The label is not cut short.
      expect(
        await tab.evaluate((element) => element.scrollWidth <= element.clientWidth, undefined, { timeout: 2000 }),
      ).toBe(true);
      rows.add(Math.round(box.y));
    }
    expect(rows.size).toBeLessThanOrEqual(2);
    await expect(page.getByRole('region', { name: 'Chart' }).locator('.MuiTabScrollButton-root')).toHaveCount(0, {
      timeout: 2000,
    });
  }).toPass({ timeout: 20_000 });
}

async function names(locator: Locator): Promise<string[]> {
  return (await locator.allTextContents()).map((text) => text.trim());
}

async function expectAccessible(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect
    .poll(() => page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').length))
    .toBe(0);
  await injectAxe(page);
  const result = await page.evaluate(() =>
    (
      window as unknown as {
        axe: { run(context: unknown): Promise<{ violations: { id: string; impact?: string; help: string }[] }> };
      }
    ).axe.run(document),
  );
  expect(
    result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`),
  ).toEqual([]);
}

test.describe('chart tab bar in a narrow chart', () => {
  test('1024 px with the navigation open: two rows of tabs, the rest under More, the chosen tab kept in the bar', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const errors = collectErrors(page);
    await page.setViewportSize({ width: 1024, height: 768 });
    await signInAs(page, 'alice@demo.hearth.example');
    const patientId = await openPatient(page);
    // The navigation is open (its default): the chart has 1024 - 250 - 350 px.
    await expect(page.locator('#shell-navbar')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Apps' })).toBeVisible();
    await expect(moreButton(page)).toBeVisible();
    await expectTabsInSight(page);

    // The bar and the menu name every tab of the spec once, in order.
    const shown = await names(chartTabs(page).getByRole('tab'));
    expect(shown.length).toBeGreaterThanOrEqual(6);
    await moreButton(page).press('Enter');
    const menu = page.getByRole('menu', { name: 'More tabs' });
    await expect(menu).toBeVisible();
    const listed = await names(menu.getByRole('menuitem'));
    expect([...shown, ...listed]).toEqual(specTabs);
    await expectAccessible(page);

    // Keyboard: down to Care Plans, Enter; its route, selected in the bar, with the focus.
    await expect(menu.getByRole('menuitem').first()).toBeFocused();
    for (let index = 0; index < listed.indexOf('Care Plans'); index++) await page.keyboard.press('ArrowDown');
    await expect(menu.getByRole('menuitem', { name: 'Care Plans' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`/Patient/${patientId}/CarePlan`);
    const carePlans = chartTabs(page).getByRole('tab', { name: 'Care Plans' });
    await expect(carePlans).toHaveAttribute('aria-selected', 'true');
    await expect(carePlans).toBeFocused();
    await expectTabsInSight(page);
    await moreButton(page).click();
    await expect(
      page.getByRole('menu', { name: 'More tabs' }).getByRole('menuitem', { name: 'Care Plans' }),
    ).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(moreButton(page)).toBeFocused();

    // Opened straight at an overflowing tab's address: in the bar too.
    await page.goto(`/Patient/${patientId}/communication`);
    await expect(chartTabs(page).getByRole('tab', { name: 'Communications' })).toHaveAttribute('aria-selected', 'true');
    await expectTabsInSight(page);

    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`/Patient/${patientId}`);
    await expect(moreButton(page)).toBeVisible();
    await moreButton(page).click();
    await expect(page.getByRole('menu', { name: 'More tabs' })).toBeVisible();
    await expectAccessible(page);
    expect(errors).toEqual([]);
  });

  test('1280 px with the navigation open: every tab in the bar, on two rows, no More', async ({ page }) => {
    test.setTimeout(60_000);
    await signInAs(page, 'alice@demo.hearth.example');
    await openPatient(page);
    await expect(chartTabs(page).getByRole('tab')).toHaveText(specTabs);
    await expect(moreButton(page)).toHaveCount(0);
    await expectTabsInSight(page);
    await expectAccessible(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page);
  });
});
