import { expect, test, type Browser, type Page } from '@playwright/test';
import { api, main, signInAs } from './consoleSupport';
import { collectErrors, expectAccessible, shoot } from './signInSupport';

/**
 * Tasks, the visit note and the questionnaire renderer in Chromium against the real server:
 * version-guarded task actions with a second browser making a conflicting change, every action,
 * filling a task's questionnaire, a visit note whose draft survives a reload, and the Preview tab.
 */

const ALICE = 'alice@demo.hearth.example';
const BEN = 'ben@demo.hearth.example';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- FHIR JSON read back from the server
type Json = any;

async function firstPatient(page: Page): Promise<Json> {
  const bundle = await api(page, 'GET', 'Patient?_count=1&_sort=_id');
  return bundle.entry[0].resource;
}

async function newTask(page: Page, patientId: string, extra: Json = {}): Promise<Json> {
  return api(page, 'POST', 'Task', {
    resourceType: 'Task',
    status: 'ready',
    intent: 'order',
    code: { text: `Check blood pressure log ${Date.now()}` },
    for: { reference: `Patient/${patientId}` },
    ...extra,
  });
}

async function signedInPage(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signInAs(page, email);
  return page;
}

function actions(page: Page) {
  return page.getByRole('complementary', { name: 'Task Actions' });
}

/** axe in light and dark (the app follows the system scheme). */
async function accessibleInBothSchemes(page: Page) {
  await page.emulateMedia({ colorScheme: 'light' });
  await expectAccessible(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect
    .poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor))
    .not.toBe('rgb(255, 255, 255)');
  await expectAccessible(page);
  await page.emulateMedia({ colorScheme: 'light' });
}

async function toast(page: Page, text: string) {
  await expect(page.locator('#notistack-snackbar').filter({ hasText: text }).first()).toBeVisible();
}

test.describe('tasks', () => {
  test('a conflicting change from a second browser: the first sees the conflict, reloads and loses nothing', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const errors = collectErrors(page);
    await signInAs(page, ALICE);
    const patient = await firstPatient(page);
    const task = await newTask(page, patient.id);
    const url = `/Patient/${patient.id}/task/${task.id}/details`;
    await page.goto(url);
    await expect(actions(page).getByRole('button', { name: 'Claim Task' })).toBeVisible();
    await expect(main(page).getByText('Unassigned')).toBeVisible();

    // Ben (front desk, another browser) opens the same task and adds a note.
    const ben = await signedInPage(browser, BEN);
    await ben.goto(url);
    await actions(ben).getByRole('button', { name: 'Add a Note' }).click();
    await ben.getByRole('dialog').getByLabel('Note').fill('Patient called: readings are in the portal');
    await ben.getByRole('dialog').getByRole('button', { name: 'Add note' }).click();
    await toast(ben, 'Comment added.');

    // Alice, still on the version she loaded, claims it: refused, and the page reloads Ben's change.
    await actions(page).getByRole('button', { name: 'Claim Task' }).click();
    await toast(page, 'Another user modified the task.');
    await page.getByRole('tablist', { name: 'Task tabs' }).getByRole('tab', { name: 'Notes' }).click();
    await expect(main(page).getByText('Patient called: readings are in the portal')).toBeVisible();
    let stored = await api(page, 'GET', `Task/${task.id}`);
    expect(stored.owner).toBeUndefined();
    expect(stored.note).toHaveLength(1);

    // On the reloaded version the claim goes through.
    await actions(page).getByRole('button', { name: 'Claim Task' }).click();
    await toast(page, 'Task claimed');
    await expect(actions(page).getByRole('button', { name: 'Claim Task' })).toHaveCount(0);

    // Alice types a note while Ben changes the due date: her save is refused, her text stays, the retry saves it.
    await actions(page).getByRole('button', { name: 'Add a Note' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Note').fill('Discussed with the patient;\nrecheck in two weeks');
    await ben.reload();
    await actions(ben).getByRole('button', { name: 'Add Due-Date' }).click();
    await ben.getByRole('dialog').getByLabel('Due date').fill('2031-05-06');
    await ben.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await toast(ben, 'Due-date updated.');
    await dialog.getByRole('button', { name: 'Add note' }).click();
    await toast(page, 'Another user modified the task.');
    await expect(dialog.getByLabel('Note')).toHaveValue('Discussed with the patient;\nrecheck in two weeks');
    await dialog.getByRole('button', { name: 'Add note' }).click();
    await toast(page, 'Comment added.');
    await expect(dialog).toHaveCount(0);

    stored = await api(page, 'GET', `Task/${task.id}`);
    expect(stored.note.map((n: Json) => n.text)).toEqual([
      'Patient called: readings are in the portal',
      'Discussed with the patient;\nrecheck in two weeks',
    ]);
    expect(stored.restriction.period.end).toBe('2031-05-06');
    expect(stored.owner.display).toBe('Alice Carter');
    // Notes newest first, each with author and date.
    const notes = main(page).getByRole('list', { name: 'Notes' }).getByRole('listitem');
    await expect(notes.first()).toContainText('recheck in two weeks');
    await expect(notes.first()).toContainText(`Alice Carter · ${new Date().toISOString().slice(0, 10)}`);
    await ben.context().close();
    expect(errors).toEqual([]);
  });

  test('every action of the Task Actions panel', async ({ page }) => {
    test.setTimeout(120_000);
    await signInAs(page, ALICE);
    const patient = await firstPatient(page);
    const task = await newTask(page, patient.id);
    await page.goto(`/Patient/${patient.id}/task/${task.id}`);
    const panel = actions(page);

    await panel.getByRole('button', { name: 'Assign', exact: true }).click();
    let dialog = page.getByRole('dialog');
    await dialog.getByLabel('Owner').fill('Ben');
    await page.getByRole('option', { name: /Ben Okafor/ }).click();
    await dialog.getByRole('button', { name: 'Assign' }).click();
    await toast(page, 'Task assigned');
    await expect(main(page).getByRole('link', { name: /Ben Okafor/ })).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Reassign' })).toBeVisible();

    await panel.getByRole('button', { name: 'Assign to a Role' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByLabel('Role').fill('Nurse');
    await page.getByRole('option', { name: 'Nurse' }).click();
    await dialog.getByRole('button', { name: 'Assign' }).click();
    await toast(page, 'Task assigned');
    await expect(main(page).getByText('Nurse')).toBeVisible();

    await panel.getByRole('button', { name: 'Update Business Status' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByLabel('Business status').click();
    await page.getByRole('option', { name: 'Awaiting review' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Status updated.');
    await expect(main(page).getByText('Awaiting review')).toBeVisible();

    await panel.getByRole('button', { name: 'Add Due-Date' }).click();
    dialog = page.getByRole('dialog');
    // Nothing chosen: nothing to save.
    await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled();
    await dialog.getByLabel('Due date').fill('2020-01-15');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Due-date updated.');
    await expect(main(page).getByText(/15 Jan 2020 \(overdue\)/)).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Change Due-Date' })).toBeVisible();

    await panel.getByRole('button', { name: 'Add a Note' }).click();
    await expect(page.getByRole('dialog').getByRole('button', { name: 'Add note' })).toBeDisabled();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    await panel.getByRole('button', { name: 'Pause Task' }).click();
    await toast(page, 'Task paused');
    await expect(main(page).getByText('on-hold').first()).toBeVisible();
    await panel.getByRole('button', { name: 'Resume Task' }).click();
    await toast(page, 'Task resumed');
    await expect(panel.getByRole('button', { name: 'Resume Task' })).toHaveCount(0);
    await panel.getByRole('button', { name: 'Complete Task' }).click();
    await toast(page, 'Task completed');
    await expect(panel.getByRole('button', { name: 'Complete Task' })).toHaveCount(0);

    const stored = await api(page, 'GET', `Task/${task.id}`);
    expect(stored).toMatchObject({
      status: 'completed',
      owner: { display: 'Ben Okafor' },
      businessStatus: { coding: [{ code: 'awaiting-review' }] },
      restriction: { period: { end: '2020-01-15' } },
    });
    expect(stored.performerType[0].coding[0].code).toBe('nurse');

    // The Timeline lists the versions with what changed.
    await page.getByRole('tablist', { name: 'Task tabs' }).getByRole('tab', { name: 'Timeline' }).click();
    await expect(main(page).getByText('status: in-progress → completed')).toBeVisible();

    await panel.getByRole('button', { name: 'Delete Task' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Task deleted');
    await expect(page).toHaveURL(new RegExp(`/Patient/${patient.id}/Task$`));
    await page.goto(`/Patient/${patient.id}/task/${task.id}/details`);
    await expect(main(page).getByText('No Task found')).toBeVisible();
  });

  test('review a submitted note and fill a questionnaire from their tasks; My tasks', async ({ page }) => {
    test.setTimeout(120_000);
    const errors = collectErrors(page);
    await signInAs(page, ALICE);

    // My tasks from the header's Tasks icon: Alice's open tasks and the unassigned ones for doctors.
    await page.getByRole('link', { name: /^Tasks: \d+$/ }).click();
    await expect(page).toHaveURL(/\/tasks$/);
    await expect(main(page).getByRole('heading', { name: 'My tasks' })).toBeVisible();
    const mine = main(page).getByRole('list', { name: 'Assigned to me' });
    await expect(mine.getByText('Fill in the PHQ-9 depression screening')).toBeVisible();
    // Seeded as due today (the state itself is unit-tested in taskRules.test.ts with a fixed clock):
    // a run that crosses midnight, seeded before it and checked after, sees the same task overdue.
    await expect(mine.getByText(/^(Due today|Overdue · )/).first()).toBeVisible();
    const unassigned = main(page).getByRole('list', { name: 'Unassigned, for my roles' });
    await expect(unassigned.getByText('Complete the new-patient intake')).toBeVisible();
    await expect(unassigned.getByText(/^Overdue/).first()).toBeVisible();
    await expect(unassigned.getByText('For your role: Doctor')).toBeVisible();
    await accessibleInBothSchemes(page);

    // Review: the visit note's first three answers, the rest behind Show more.
    await mine.getByText('Physician menopause-management note').first().click();
    const answers = main(page).getByRole('region', { name: 'Response answers' });
    await expect(answers.getByText('Hot flashes')).toBeVisible();
    await expect(answers.getByText('Sleep disturbance')).toHaveCount(0);
    await answers.getByRole('button', { name: 'Show more' }).click();
    await expect(answers.getByText('Sleep disturbance')).toBeVisible();
    await answers.getByRole('button', { name: 'Show less' }).click();
    await actions(page).getByRole('button', { name: 'Review Response' }).click();
    await toast(page, 'Task completed');

    // Fill: the PHQ-9 with its calculated total, which completes the task.
    await page.goto('/tasks');
    await mine.getByText('Fill in the PHQ-9 depression screening').click();
    const taskUrl = page.url();
    await actions(page).getByRole('button', { name: 'Fill Questionnaire' }).click();
    await expect(page).toHaveURL(/\/fill$/);
    const form = main(page).getByRole('form');
    const groups = form.getByRole('radiogroup');
    await expect(groups).toHaveCount(9);
    for (let index = 0; index < 9; index++) {
      await groups
        .nth(index)
        .getByRole('radio', { name: index < 4 ? 'Nearly every day' : 'Several days' })
        .check();
    }
    // 4 × 3 + 5 × 1 = 17: moderately severe.
    await expect(form.getByLabel('Patient Health Questionnaire 9 item (PHQ-9) total score')).toHaveValue('17');
    await expect(form.getByLabel('Depression severity')).toHaveValue('Moderately severe');
    await form.getByRole('button', { name: 'Submit and complete task' }).click();
    await toast(page, 'Task completed');
    await expect(page).toHaveURL(/\/details$/);
    const taskId = taskUrl.split('/task/')[1].split('/')[0];
    const responses = await api(page, 'GET', `QuestionnaireResponse?based-on=Task/${taskId}`);
    expect(responses.entry).toHaveLength(1);
    const total = responses.entry[0].resource.item.find((i: Json) => i.linkId === '44261-6');
    expect(total.answer).toEqual([{ valueInteger: 17 }]);
    // A search, not a read: the read may come from the browser's HTTP cache (see the report).
    expect((await api(page, 'GET', `Task?_id=${taskId}`)).entry[0].resource.status).toBe('completed');
    await expect(main(page).getByText('completed').first()).toBeVisible();
    expect(errors).toEqual([]);
  });
});

test.describe('visit note', () => {
  test('filled, its draft resumed after a reload, submitted with its follow-up task', async ({ page }) => {
    test.setTimeout(150_000);
    const errors = collectErrors(page);
    await signInAs(page, ALICE);
    // The menopause-service note is written for the demo's woman of 57, as the seeded one is.
    const patient = (await api(page, 'GET', 'Patient?name=Estrella&_count=1')).entry[0].resource;
    await page.goto(`/Patient/${patient.id}/encounter`);
    await expect(main(page).getByRole('heading', { name: /^Required actions \(\d+\)$/ })).toBeVisible();
    const form = main(page).getByRole('form', { name: 'SOAP Note - Menopause Service' });
    await expect(form.getByLabel('Date of visit')).toHaveValue('2023-10-19');

    const subjective = form.getByRole('region', { name: 'Subjective' });
    await subjective.getByRole('radiogroup', { name: 'Hot flashes' }).getByRole('radio', { name: 'Yes' }).check();
    await subjective.getByRole('checkbox', { name: 'Blood clots' }).check();
    await subjective.getByLabel('Self-reported history: other').fill('Migraine with aura');
    await subjective.getByLabel('Details').fill('Hot flashes at night, several times a week.');
    await expect(main(page).getByTestId('draft-status')).toContainText('Draft saved');

    // A reload (or another machine) resumes the draft.
    await page.reload();
    await expect(form.getByLabel('Details')).toHaveValue('Hot flashes at night, several times a week.');
    await expect(subjective.getByRole('checkbox', { name: 'Blood clots' })).toBeChecked();
    await expect(subjective.getByLabel('Self-reported history: other')).toHaveValue('Migraine with aura');
    await expect(
      subjective.getByRole('radiogroup', { name: 'Hot flashes' }).getByRole('radio', { name: 'Yes' }),
    ).toBeChecked();

    await form.getByRole('radio', { name: 'Late menopause' }).check();
    await form.getByRole('checkbox', { name: 'Systemic HRT' }).check();
    await form.getByRole('radio', { name: 'High Complexity' }).check();
    await main(page)
      .getByRole('heading', { name: /^Required actions/ })
      .scrollIntoViewIfNeeded();
    await shoot(page, 'visit-note');
    await accessibleInBothSchemes(page);
    await form.getByRole('button', { name: 'Submit' }).click();
    await toast(page, 'Visit note submitted');
    // The toast stands clear of the next steps (it used to cover View the note and Start another note).
    const another = main(page).getByRole('button', { name: 'Start another note' });
    const shownToast = page.locator('.notistack-MuiContent').filter({ hasText: 'Visit note submitted' });
    await expect
      .poll(async () => {
        const [a, b] = [await another.boundingBox(), await shownToast.boundingBox()];
        return !!a && !!b && (a.y + a.height <= b.y || a.y >= b.y + b.height || a.x + a.width <= b.x);
      })
      .toBe(true);
    await another.click({ trial: true, timeout: 2000 });

    const responses = await api(page, 'GET', `QuestionnaireResponse?subject=Patient/${patient.id}&_sort=-_lastUpdated`);
    const note = responses.entry[0].resource;
    expect(note.status).toBe('completed');
    // The draft was completed in place: no in-progress response is left behind.
    expect(responses.entry.filter((e: Json) => e.resource.status === 'in-progress')).toHaveLength(0);
    const tasks = await api(page, 'GET', `Task?focus=QuestionnaireResponse/${note.id}`);
    expect(tasks.entry[0].resource).toMatchObject({
      status: 'ready',
      intent: 'order',
      for: { reference: `Patient/${patient.id}` },
    });

    // The follow-up task in the chart: its Tasks tab lists it, and the task page shows the note's answers.
    await page.goto(`/Patient/${patient.id}/Task`);
    await expect(main(page).getByText('Physician menopause-management note').first()).toBeVisible();
    await page.goto(`/Patient/${patient.id}/encounter`);
    await expect(
      main(page)
        .getByRole('list', { name: 'Required actions' })
        .getByText('Physician menopause-management note')
        .first(),
    ).toBeVisible();
    await main(page)
      .getByRole('list', { name: 'Required actions' })
      .getByText('Physician menopause-management note')
      .first()
      .click();
    await expect(main(page).getByRole('region', { name: 'Response answers' }).getByText('Date of visit')).toBeVisible();
    await shoot(page, 'task-page');
    await accessibleInBothSchemes(page);
    // A fresh visit note starts again from the questionnaire's initial values.
    await page.goto(`/Patient/${patient.id}/encounter`);
    await expect(form.getByLabel('Details')).toHaveValue('');
    expect(errors).toEqual([]);
  });

  test('two tabs on one note: the second save is refused, nothing overwritten; a submitted note is never reopened', async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000);
    const errors = collectErrors(page);
    await signInAs(page, ALICE);
    const patient = (await api(page, 'GET', 'Patient?name=Wendy&_count=1')).entry[0].resource;
    const url = `/Patient/${patient.id}/encounter`;
    const details = (tab: Page) =>
      main(tab).getByRole('form', { name: 'SOAP Note - Menopause Service' }).getByLabel('Details');
    const draftText = async () => {
      const drafts = await api(page, 'GET', `QuestionnaireResponse?subject=Patient/${patient.id}&_sort=-_lastUpdated`);
      const note = drafts.entry?.[0]?.resource;
      return { note, text: JSON.stringify(note?.item ?? []).match(/"valueString":"(Tab [^"]*)"/)?.[1] };
    };

    // Tab A types and saves; tab B (same account, same browser) opens the page and resumes A's draft.
    await page.goto(url);
    await details(page).fill('Tab A text');
    await expect.poll(async () => (await draftText()).text).toBe('Tab A text');
    const tabB = await page.context().newPage();
    const errorsB = collectErrors(tabB);
    await tabB.goto(url);
    await expect(details(tabB)).toHaveValue('Tab A text');

    await details(page).fill('Tab A text, second edit');
    await expect.poll(async () => (await draftText()).text).toBe('Tab A text, second edit');
    await details(tabB).fill('Tab B text');
    const notice = main(tabB).getByTestId('draft-conflict');
    await expect(notice).toContainText('This visit note was changed in another tab or by someone else.');
    await expect(notice).not.toContainText('Version mismatch');
    // Tab B is scrolled down to the field it typed in: the notice is pinned where it is seen.
    await details(tabB).scrollIntoViewIfNeeded();
    await expect(notice).toBeInViewport();
    expect((await draftText()).text).toBe('Tab A text, second edit');
    await expect(details(tabB)).toHaveValue('Tab B text');
    await tabB.screenshot({ path: testInfo.outputPath('visit-note-conflict.png'), fullPage: true });

    // A submits its version; B's "Keep mine" then finds the note submitted and writes nothing.
    await main(page)
      .getByRole('form', { name: 'SOAP Note - Menopause Service' })
      .getByRole('button', { name: 'Submit' })
      .click();
    await toast(page, 'Visit note submitted');
    const { note } = await draftText();
    expect(note.status).toBe('completed');
    await notice.getByRole('button', { name: 'Keep mine and save' }).click();
    await expect(notice).toContainText(/This visit note was submitted at .+ by Alice Carter\./);
    await expect(details(tabB)).toBeDisabled();
    await details(tabB).scrollIntoViewIfNeeded();
    await tabB.screenshot({ path: testInfo.outputPath('visit-note-submitted-elsewhere.png'), fullPage: true });
    const history = await api(page, 'GET', `QuestionnaireResponse/${note.id}/_history`);
    expect(history.entry[0].resource.status).toBe('completed');
    expect(history.entry[0].resource.meta.versionId).toBe(note.meta.versionId);
    await tabB.close();
    expect(errors).toEqual([]);
    expect(errorsB).toEqual([]);
  });
});

test.describe('questionnaire renderer', () => {
  test('a paged questionnaire in its Preview tab: Next only with valid answers, Back, Submit', async ({ page }) => {
    test.setTimeout(120_000);
    const errors = collectErrors(page);
    await signInAs(page, ALICE);
    const found = await api(
      page,
      'GET',
      'Questionnaire?url=https://hearth-emr.org/fhir/Questionnaire/new-patient-intake',
    );
    const id = found.entry[0].resource.id;
    await page.goto(`/Questionnaire/${id}/preview`);
    const form = main(page).getByRole('form', { name: 'New patient intake' });
    await expect(form.getByText('Page 1 of 3')).toBeVisible();
    await expect(form.getByLabel('Clinic location')).toHaveValue('No Answers Defined');
    await expect(form.getByLabel('Clinic location')).toBeDisabled();
    await form.getByRole('button', { name: 'Next' }).click();
    await expect(form.getByText('Page 1 of 3')).toBeVisible();
    await expect(form.getByText('Required').first()).toBeVisible();
    await form.getByLabel('Preferred name').fill('Sam');
    await form.getByLabel('Date of birth').fill('1971-03-04');
    await form.getByLabel('Personal website').fill('not a url');
    await form.getByRole('button', { name: 'Next' }).click();
    await expect(form.getByText('Must be a URL (https://…)')).toBeVisible();
    await form.getByLabel('Personal website').fill('https://sam.example');
    await form.getByText('Page 1 of 3').scrollIntoViewIfNeeded();
    await shoot(page, 'questionnaire-paged');
    await form.getByRole('button', { name: 'Next' }).click();
    await expect(form.getByText('Page 2 of 3')).toBeVisible();
    await form.getByLabel('Body weight (kg)').fill('80');
    await form.getByRole('spinbutton', { name: /^Body height/ }).fill('180');
    await expect(form.getByLabel('BMI (kg/m²)')).toHaveValue(/^24\.69/);
    await form.getByRole('button', { name: 'Back' }).click();
    await expect(form.getByLabel('Preferred name')).toHaveValue('Sam');
    await form.getByRole('button', { name: 'Next' }).click();
    await form.getByRole('button', { name: 'Next' }).click();
    await expect(form.getByText('Page 3 of 3')).toBeVisible();
    await form
      .getByRole('radiogroup', { name: 'I agree to be contacted by the clinic' })
      .getByRole('radio', { name: 'Yes' })
      .check();
    await accessibleInBothSchemes(page);
    await form.getByRole('button', { name: 'Submit' }).click();
    await expect(
      main(page).getByText('This response is valid against the questionnaire. Nothing was saved.'),
    ).toBeVisible();
    await expect(main(page).getByLabel('QuestionnaireResponse JSON')).toContainText('"valueString": "Sam"');
    expect(errors).toEqual([]);
  });
});
