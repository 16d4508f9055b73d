/**
 * Coded entries and the header's open tasks in the chart's summary sidebar, on the real server: alice
 * adds a problem by choosing a SNOMED CT code the demo clinic has already recorded (there is no
 * terminology to search), reopens it and sees the code; the header counts the patient's open and
 * overdue tasks and leads to the Tasks tab. Writes go to Clemente Kreiger, whom no other spec
 * changes, so Wendy Littel stays as seeded for the screenshots.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { OPEN_TASK_STATUSES } from '../../custom-screens/tasks/myTaskRules';
import { api, openPatient, signInAs } from './consoleSupport';
import { expectAccessible } from './signInSupport';

const alice = 'alice@demo.hearth.example';
const SNOMED = 'http://snomed.info/sct';

function summary(page: Page): Locator {
  return page.getByRole('complementary', { name: 'Patient summary' });
}

/** `yyyy-mm-dd` of a day relative to today, in this machine's zone (the browser's too). */
function localDay(daysFromToday: number): string {
  const day = new Date(Date.now() + daysFromToday * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

test.describe('coded summary entries and open tasks', () => {
  test.setTimeout(120_000);

  test('alice codes a problem from the clinic’s record and sees the code again; the header counts open and overdue tasks', async ({
    page,
  }) => {
    await signInAs(page, alice);
    const patientId = await openPatient(page, /Clemente/);
    const patient = `Patient/${patientId}`;

    // The clinic's record has Hypertension (SNOMED CT 38341003) on two patients: one suggestion.
    const recorded = await api(page, 'GET', `Condition?code=${SNOMED}|38341003&_summary=count`);
    expect(recorded.total).toBeGreaterThanOrEqual(2);

    // An overdue task, so the header has something to warn about.
    await api(page, 'POST', 'Task', {
      resourceType: 'Task',
      status: 'ready',
      intent: 'order',
      code: { text: 'Call back about results (e2e)' },
      for: { reference: patient },
      restriction: { period: { end: localDay(-3) } },
    });
    const openTasks = await api(
      page,
      'GET',
      `Task?patient=${patient}&status=${OPEN_TASK_STATUSES.join(',')}&_count=100`,
    );
    const tasks: { resource: { restriction?: { period?: { end?: string } } } }[] = openTasks.entry ?? [];
    const today = localDay(0);
    const overdue = tasks.filter((entry) => (entry.resource.restriction?.period?.end ?? today).slice(0, 10) < today);
    expect(overdue.length).toBeGreaterThanOrEqual(1);

    await page.reload();
    const tasksLink = summary(page).getByRole('link', {
      name: `${tasks.length} open task${tasks.length === 1 ? '' : 's'} · ${overdue.length} overdue`,
    });
    await expect(tasksLink).toBeVisible();
    await expect(tasksLink).toHaveAttribute('href', `/Patient/${patientId}/Task`);
    await expect(summary(page).getByRole('link', { name: /upcoming appointments?$/ })).toBeVisible();
    await expect(summary(page).getByRole('link', { name: /documented visits?$/ })).toBeVisible();

    // Add a problem by choosing the recorded code.
    const problems = summary(page).getByRole('region', { name: 'Problem List' });
    await problems.getByRole('button', { name: 'Add problem' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add problem' });
    const field = dialog.getByRole('combobox', { name: 'Problem' });
    await field.pressSequentially('Hypert', { delay: 30 });
    const listbox = page.getByRole('listbox');
    await expect(listbox).toBeVisible();
    await expect(page.getByText('Suggestions from problems recorded in this clinic')).toBeVisible();
    const hypertension = listbox.getByRole('option', { name: /^Hypertension SNOMED CT · 38341003$/ });
    await expect(hypertension).toHaveCount(1);
    await expectAccessible(page);
    await hypertension.click();
    await expect(field).toHaveValue('Hypertension');
    await expect(field).toHaveAccessibleDescription('Coded: SNOMED CT 38341003');
    await dialog.getByLabel('Dx Date').fill('2022-04-05');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Problem added')).toBeVisible();

    const saved = await api(page, 'GET', `Condition?subject=${patient}&_sort=-_lastUpdated&_count=1`);
    expect(saved.entry[0].resource.code).toEqual({
      coding: [{ system: SNOMED, code: '38341003', display: 'Hypertension' }],
      text: 'Hypertension',
    });

    // Reopened, the problem shows its code.
    await problems.getByRole('button', { name: /^Edit problem Hypertension\b/ }).click();
    const edit = page.getByRole('dialog', { name: 'Edit problem' });
    await expect(edit.getByRole('combobox', { name: 'Problem' })).toHaveValue('Hypertension');
    await expect(edit.getByRole('combobox', { name: 'Problem' })).toHaveAccessibleDescription(
      'Coded: SNOMED CT 38341003',
    );
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await expect(edit).toBeHidden();

    // The header's link leads to the chart's Tasks tab.
    await tasksLink.click();
    await expect(page).toHaveURL(new RegExp(`/Patient/${patientId}/Task$`));
    await expect(page.getByRole('table', { name: 'Tasks' })).toContainText('Call back about results (e2e)');
  });
});
