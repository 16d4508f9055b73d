import { expect, test, type Page, type Route } from '@playwright/test';
import { api, main, signInAs } from './consoleSupport';
import { collectErrors } from './signInSupport';

/**
 * Nothing a clinician types in a questionnaire is lost on a reload: with the server refusing the
 * writes, the visit note's and a task fill's answers are kept in the browser, restored after a
 * reload with a notice, and stored once the server takes them again.
 */

const ALICE = 'alice@demo.hearth.example';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- FHIR JSON read back from the server
type Json = any;

/** A patient of this test alone, so no other spec's drafts or tasks meet these. */
async function newPatient(page: Page, family: string): Promise<Json> {
  return api(page, 'POST', 'Patient', { resourceType: 'Patient', name: [{ given: ['Rae'], family }] });
}

/** The server "cannot be reached" for the writes `refused` picks while `blocked.on` is set. */
async function refuseWrites(page: Page, refused: (route: Route) => boolean) {
  const blocked = { on: true };
  await page.route('**/fhir/R4/**', (route) => (blocked.on && refused(route) ? route.abort() : route.fallback()));
  await page.route('**/fhir/R4', (route) => (blocked.on && refused(route) ? route.abort() : route.fallback()));
  return blocked;
}

/** A visit-note draft being created or updated. */
function isDraftWrite(route: Route): boolean {
  const request = route.request();
  return ['POST', 'PUT'].includes(request.method()) && /\/QuestionnaireResponse(\/|$)/.test(request.url());
}

/** Errors the refused requests cause on purpose (the browser logs every aborted request). */
function unexpected(errors: string[]): string[] {
  return errors.filter((error) => !/Failed to (load resource|fetch)|ERR_FAILED|net::/.test(error));
}

function notice(page: Page) {
  return main(page).getByTestId('recovered-answers');
}

test.describe('questionnaire answers survive a reload while the server refuses them', () => {
  test('the visit note: kept in the browser, restored with a notice, saved once the server takes it', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const errors = collectErrors(page);
    // A reload with unsaved answers asks first (beforeunload): go ahead, that is the point.
    page.on('dialog', (dialog) => void dialog.accept());
    await signInAs(page, ALICE);
    const patient = await newPatient(page, 'Recovery-Note');
    const blocked = await refuseWrites(page, isDraftWrite);

    await page.goto(`/Patient/${patient.id}/encounter`);
    const form = main(page).getByRole('form', { name: 'SOAP Note - Menopause Service' });
    const details = form.getByRole('region', { name: 'Subjective' }).getByLabel('Details');
    const status = main(page).getByTestId('draft-status');
    await details.fill('Night sweats since March, typed while the server was away.');
    await expect(status).toContainText('Draft not saved');

    // Reloaded while the server still refuses: the answer is back, with the notice.
    await page.reload();
    await expect(details).toHaveValue('Night sweats since March, typed while the server was away.');
    await expect(notice(page)).toContainText('Recovered answers that were not saved');
    await expect(notice(page)).toContainText('The server cannot store them yet');
    await expect(status).toContainText('Draft not saved');
    expect(
      (await api(page, 'GET', `QuestionnaireResponse?subject=Patient/${patient.id}&status=in-progress`)).entry ?? [],
    ).toHaveLength(0);

    // The server takes writes again: the next opening restores the answers and saves them at once.
    blocked.on = false;
    await page.reload();
    await expect(details).toHaveValue('Night sweats since March, typed while the server was away.');
    await expect(notice(page)).toContainText('They are now saved as the draft.');
    await expect(status).toContainText('Draft saved');
    const drafts = await api(page, 'GET', `QuestionnaireResponse?subject=Patient/${patient.id}&status=in-progress`);
    expect(drafts.entry).toHaveLength(1);
    expect(JSON.stringify(drafts.entry[0].resource.item)).toContain('Night sweats since March');

    // Saved: the browser copy is gone, and the next opening is the server's draft, without a notice.
    await page.reload();
    await expect(details).toHaveValue('Night sweats since March, typed while the server was away.');
    await expect(status).toContainText('Draft saved');
    await expect(notice(page)).toHaveCount(0);
    expect(unexpected(errors)).toEqual([]);
  });

  test("signing out removes the account's unsaved answers and messages from the browser, not others'", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const errors = collectErrors(page);
    await signInAs(page, ALICE);
    const patient = await newPatient(page, 'Recovery-SignOut');
    await refuseWrites(page, isDraftWrite);
    await page.goto(`/Patient/${patient.id}/encounter`);
    const form = main(page).getByRole('form', { name: 'SOAP Note - Menopause Service' });
    await form.getByRole('region', { name: 'Subjective' }).getByLabel('Details').fill('Not to be left behind');
    await expect(main(page).getByTestId('draft-status')).toContainText('Draft not saved');
    const me = await page.evaluate(
      () =>
        (JSON.parse(localStorage.getItem('hearth.activeLogin') ?? '{}') as { profile: { reference: string } }).profile
          .reference,
    );
    await page.evaluate((me) => {
      sessionStorage.setItem(`hearth.chatDraft.${me}|Patient/x`, 'An unsent message');
      sessionStorage.setItem('hearth.chatDraft.Practitioner/someone-else|Patient/x', 'Theirs');
    }, me);
    const draftKeys = () =>
      page.evaluate(() =>
        Object.keys(sessionStorage)
          .filter((key) => /^hearth\.(questionnaireAnswers|chatDraft)\./.test(key))
          .sort(),
      );
    const before = await draftKeys();
    expect(before).toContain(`hearth.chatDraft.${me}|Patient/x`);
    expect(
      before.filter((key) => key.startsWith(`hearth.questionnaireAnswers.${me}|Patient/${patient.id}|`)),
    ).toHaveLength(1);

    await page.getByRole('button', { name: /User menu: / }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/signin/);
    expect(await draftKeys()).toEqual(['hearth.chatDraft.Practitioner/someone-else|Patient/x']);
    expect(unexpected(errors)).toEqual([]);
  });

  test("a task's questionnaire: a failed submit is kept across a reload, then completes the task", async ({ page }) => {
    test.setTimeout(120_000);
    const errors = collectErrors(page);
    page.on('dialog', (dialog) => void dialog.accept());
    await signInAs(page, ALICE);
    const patient = await newPatient(page, 'Recovery-Task');
    const phq9 = (await api(page, 'GET', 'Questionnaire?url=https://hearth-emr.org/fhir/Questionnaire/phq-9')).entry[0]
      .resource;
    const task = await api(page, 'POST', 'Task', {
      resourceType: 'Task',
      status: 'ready',
      intent: 'order',
      code: { text: 'Recovery check: PHQ-9' },
      for: { reference: `Patient/${patient.id}` },
      focus: { reference: `Questionnaire/${phq9.id}` },
    });
    // The fill's submit is one transaction Bundle posted to the FHIR base.
    const blocked = await refuseWrites(page, (route) => {
      const request = route.request();
      if (request.method() !== 'POST') return false;
      try {
        return (JSON.parse(request.postData() ?? '{}') as { type?: string }).type === 'transaction';
      } catch {
        return false;
      }
    });

    await page.goto(`/Patient/${patient.id}/task/${task.id}/fill`);
    const form = main(page).getByRole('form');
    const groups = form.getByRole('radiogroup');
    await expect(groups).toHaveCount(9);
    for (let index = 0; index < 9; index++) {
      await groups.nth(index).getByRole('radio', { name: 'More than half the days' }).check();
    }
    await expect(form.getByLabel('Patient Health Questionnaire 9 item (PHQ-9) total score')).toHaveValue('18');
    await form.getByRole('button', { name: 'Submit and complete task' }).click();
    await expect(page.locator('#notistack-snackbar').first()).toBeVisible();
    expect((await api(page, 'GET', `Task?_id=${task.id}`)).entry[0].resource.status).toBe('ready');

    // Reloaded: every answer is back, with the notice and its Discard action.
    await page.reload();
    await expect(notice(page)).toContainText('Recovered answers that were not saved');
    await expect(notice(page).getByRole('button', { name: 'Discard recovered answers' })).toBeVisible();
    for (let index = 0; index < 9; index++) {
      await expect(groups.nth(index).getByRole('radio', { name: 'More than half the days' })).toBeChecked();
    }
    await expect(form.getByLabel('Patient Health Questionnaire 9 item (PHQ-9) total score')).toHaveValue('18');

    // The server takes the submit again: the task is completed, and the browser copy is gone.
    blocked.on = false;
    await form.getByRole('button', { name: 'Submit and complete task' }).click();
    await expect(page.locator('#notistack-snackbar').filter({ hasText: 'Task completed' }).first()).toBeVisible();
    await expect(page).toHaveURL(/\/details$/);
    expect((await api(page, 'GET', `Task?_id=${task.id}`)).entry[0].resource.status).toBe('completed');
    const responses = await api(page, 'GET', `QuestionnaireResponse?based-on=Task/${task.id}`);
    expect(responses.entry).toHaveLength(1);
    await page.goto(`/Patient/${patient.id}/task/${task.id}/fill`);
    await expect(groups).toHaveCount(9);
    await expect(notice(page)).toHaveCount(0);
    expect(unexpected(errors)).toEqual([]);
  });
});
