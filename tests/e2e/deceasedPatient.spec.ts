import { expect, test } from '@playwright/test';
import { api, main, signInAs } from './consoleSupport';
import { collectErrors, expectAccessible } from './signInSupport';

const ALICE = 'alice@demo.hearth.example';
const DAY = 24 * 60 * 60 * 1000;

test.describe('a patient who has died', () => {
  test("the chart says what is still open, and cancels the patient's appointments in one step", async ({ page }) => {
    test.setTimeout(120_000);
    const errors = collectErrors(page);
    await signInAs(page, ALICE);
    // A patient of this test's own: the demo's patients stay as seeded for the other specs.
    const died = new Date(Date.now() - 2 * DAY).toISOString().slice(0, 10);
    const patient = await api(page, 'POST', 'Patient', {
      resourceType: 'Patient',
      name: [{ given: ['Ida'], family: `Marsh${Date.now()}` }],
      birthDate: '1941-05-02',
      deceasedDateTime: died,
    });
    const appointment = (status: string, days: number, description: string) =>
      api(page, 'POST', 'Appointment', {
        resourceType: 'Appointment',
        status,
        description,
        start: new Date(Date.now() + days * DAY).toISOString(),
        end: new Date(Date.now() + days * DAY + 30 * 60 * 1000).toISOString(),
        participant: [{ actor: { reference: `Patient/${patient.id}` }, status: 'accepted' }],
      });
    const upcoming = await appointment('booked', 5, 'Follow-up visit');
    const past = await appointment('fulfilled', -20, 'Blood pressure check');

    await page.goto(`/Patient/${patient.id}`);
    const notice = main(page).locator('[data-deceased-notice]');
    await expect(notice).toContainText('Died ');
    await expect(notice).toContainText('1 appointment is still open.');
    await expect(notice.getByRole('link', { name: '1 appointment' })).toHaveAttribute(
      'href',
      `/Patient/${patient.id}/Appointment`,
    );
    await expectAccessible(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page);
    await page.emulateMedia({ colorScheme: 'light' });

    await notice.getByRole('button', { name: 'Cancel 1 appointment…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel 1 appointment?' });
    await expect(dialog.getByRole('list', { name: 'Appointments to cancel' })).toContainText('Follow-up visit');
    await expect(dialog).not.toContainText('Blood pressure check');
    await dialog.getByRole('button', { name: 'Cancel 1 appointment' }).click();
    await expect(dialog).toBeHidden();
    await expect(notice).not.toContainText('still open');

    const cancelled = await api(page, 'GET', `Appointment/${upcoming.id}`);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.cancelationReason.coding[0]).toMatchObject({
      system: 'http://terminology.hl7.org/CodeSystem/appointment-cancellation-reason',
      code: 'pat-dec',
    });
    expect(cancelled.description).toBe('Follow-up visit');
    // The visit that happened before the death is left as it was.
    expect((await api(page, 'GET', `Appointment/${past.id}`)).meta.versionId).toBe(past.meta.versionId);
    expect(errors).toEqual([]);
  });
});
