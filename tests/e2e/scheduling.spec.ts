import { expect, test } from '@playwright/test';
import { api, main, openPatient, signInAs } from './consoleSupport';
import { shoot } from './signInSupport';

/**
 * Booking an appointment (custom-screens/scheduling): from a chart's Appointments tab the form
 * opens with the patient chosen and the signed-in clinician; a second booking of the same slot is
 * named as a clash before anything is written.
 */
test.describe('booking an appointment', () => {
  test('from the chart: errors under the fields, a booking, and the clash of a second one', async ({ page }) => {
    test.setTimeout(120_000);
    await signInAs(page, 'alice@demo.hearth.example');
    const patientId = await openPatient(page);
    await page.goto(`/Patient/${patientId}/Appointment`);
    await main(page).getByRole('link', { name: 'New' }).click();
    await expect(page).toHaveURL(/\/appointments\/new\?patient=/);
    const form = main(page).getByRole('form', { name: 'New appointment' });
    await expect(form.getByLabel('Patient')).toHaveValue(/Wendy/);
    await expect(form.getByLabel('Clinician')).toHaveValue(/Alice/);

    // A slot far ahead (a day no other test books), then one in the past refused under its field.
    const day = new Date(Date.now() + (200 + Math.floor(Math.random() * 300)) * 86_400_000).toISOString().slice(0, 10);
    await form.getByLabel('Date').fill('2020-01-06');
    await form.getByLabel('Start time').fill('09:00');
    await form.getByRole('button', { name: 'Book appointment' }).click();
    await expect(form.getByText('The start is in the past')).toBeVisible();
    await form.getByLabel('Date').fill(day);
    await form.getByLabel('Reason / description').fill('Blood pressure review (e2e)');
    await shoot(page, 'scheduling-booking');
    await form.getByRole('button', { name: 'Book appointment' }).click();
    await expect(page.getByText('Appointment booked')).toBeVisible();
    await expect(page).toHaveURL(`/Patient/${patientId}/Appointment`);

    const booked = await api(page, 'GET', `Appointment?patient=Patient/${patientId}&date=ge${day}T00:00:00&_count=10`);
    expect(booked.entry).toHaveLength(1);
    const appointment = booked.entry[0].resource;
    expect(appointment.status).toBe('booked');
    expect(appointment.minutesDuration).toBe(20);
    expect(appointment.participant.map((p: { actor: { reference: string } }) => p.actor.reference)).toContain(
      `Patient/${patientId}`,
    );

    // The same slot again: the clash is named, nothing written until the clerk says so.
    await main(page).getByRole('link', { name: 'New' }).click();
    await form.getByLabel('Date').fill(day);
    await form.getByLabel('Start time').fill('09:10');
    await form.getByRole('button', { name: 'Book appointment' }).click();
    await expect(form.getByText(/already has .*Wendy/)).toBeVisible();
    await expect(form.getByRole('button', { name: 'Book anyway' })).toBeVisible();
    await shoot(page, 'scheduling-clash');
    await form.getByRole('button', { name: 'Change time' }).click();
    const after = await api(page, 'GET', `Appointment?patient=Patient/${patientId}&date=ge${day}T00:00:00&_count=10`);
    expect(after.entry).toHaveLength(1);
    await api(page, 'DELETE', `Appointment/${appointment.id}`);
  });
});

/**
 * Acting on an appointment (custom-screens/scheduling/AppointmentActions): above its details, a
 * request is booked or declined and a booked appointment cancelled with a reason, in one or two clicks.
 */
test.describe('acting on an appointment', () => {
  test('Book and Decline a request, Cancel a booked appointment', async ({ page }) => {
    test.setTimeout(120_000);
    await signInAs(page, 'alice@demo.hearth.example');
    const patientId = await openPatient(page);
    const practitioners = await api(page, 'GET', 'Practitioner?name=Carter&_count=1');
    const alice = practitioners.entry[0].resource;
    // A day far ahead, at 10:00 and 11:00 local time: no other test's slot, never today.
    const day = new Date(Date.now() + (200 + Math.floor(Math.random() * 300)) * 86_400_000);
    const at = (hours: number, minutes = 0) =>
      new Date(day.getFullYear(), day.getMonth(), day.getDate(), hours, minutes).toISOString();
    const create = (status: string, hours: number, description: string) =>
      api(page, 'POST', 'Appointment', {
        resourceType: 'Appointment',
        status,
        start: at(hours),
        end: at(hours, 20),
        description,
        participant: [
          { actor: { reference: `Patient/${patientId}` }, status: 'needs-action' },
          { actor: { reference: `Practitioner/${alice.id}` }, status: 'accepted' },
        ],
      });
    const request = await create('proposed', 10, 'Asked for a blood pressure review (e2e)');
    const unwanted = await create('proposed', 11, 'Asked for a sick note (e2e)');
    const booked = await create('booked', 9, 'Follow-up (e2e)');
    const panel = main(page).getByRole('region', { name: 'Appointment' });

    // A request in the chart: Book.
    await page.goto(`/Patient/${patientId}/Appointment/${request.id}`);
    await expect(panel.getByText('Requested')).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Decline' })).toBeVisible();
    await shoot(page, 'scheduling-appointment-request');
    await panel.getByRole('button', { name: 'Book' }).click();
    await expect(page.getByText('Appointment booked')).toBeVisible();
    await expect(panel.getByText('Booked', { exact: true })).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Cancel appointment' })).toBeVisible();
    expect((await api(page, 'GET', `Appointment/${request.id}`)).status).toBe('booked');

    // Another request, from the console: Decline with a reason.
    await page.goto(`/Appointment/${unwanted.id}`);
    await panel.getByRole('button', { name: 'Decline' }).click();
    const decline = page.getByRole('dialog', { name: 'Decline this request?' });
    await decline.getByLabel('Reason (optional)').fill('Sick notes are not given by appointment');
    await shoot(page, 'scheduling-appointment-decline');
    await decline.getByRole('button', { name: 'Decline' }).click();
    await expect(page.getByText('Appointment declined')).toBeVisible();
    await expect(
      panel.getByText('Reason: Declined by the clinic: Sick notes are not given by appointment'),
    ).toBeVisible();
    const declined = await api(page, 'GET', `Appointment/${unwanted.id}`);
    expect(declined.status).toBe('cancelled');
    expect(declined.participant.map((p: { status: string }) => p.status)).toEqual(['declined', 'declined']);

    // A booked appointment: Cancel asks why.
    await page.goto(`/Patient/${patientId}/Appointment/${booked.id}`);
    await panel.getByRole('button', { name: 'Cancel appointment' }).click();
    const cancel = page.getByRole('dialog', { name: 'Cancel this appointment?' });
    await cancel.getByLabel('Reason').fill('Patient is travelling');
    await shoot(page, 'scheduling-appointment-cancel');
    await cancel.getByRole('button', { name: 'Cancel appointment' }).click();
    await expect(page.getByText('Appointment cancelled')).toBeVisible();
    await expect(panel.getByText('Reason: Patient is travelling')).toBeVisible();
    await expect(panel.getByRole('button')).toHaveCount(0);
    await shoot(page, 'scheduling-appointment-cancelled');
    expect((await api(page, 'GET', `Appointment/${booked.id}`)).cancelationReason.text).toBe('Patient is travelling');

    for (const appointment of [request, unwanted, booked]) await api(page, 'DELETE', `Appointment/${appointment.id}`);
  });
});

/**
 * Here today (custom-screens/scheduling/HereTodaySection.tsx, at the top of New Appointment): a
 * patient checked in at the desk appears with the time they arrived, how long they have waited and
 * with whom; Mark fulfilled closes the visit and they leave the list.
 */
test.describe('here today', () => {
  test('a check-in shows who is here, since when and with whom; Mark fulfilled takes them off', async ({ page }) => {
    test.setTimeout(120_000);
    await signInAs(page, 'ben@demo.hearth.example');
    const patientId = await openPatient(page);
    const practitioners = await api(page, 'GET', 'Practitioner?name=Carter&_count=1');
    const alice = practitioners.entry[0].resource;
    // Later today (never tomorrow: a run just before midnight starts at the last minute of the day).
    const now = new Date();
    const start = new Date(Math.min(now.getTime() + 30 * 60_000, new Date(now).setHours(23, 39, 0, 0)));
    const description = `Blood pressure review (e2e ${Date.now()})`;
    const booked = await api(page, 'POST', 'Appointment', {
      resourceType: 'Appointment',
      status: 'booked',
      start: start.toISOString(),
      end: new Date(start.getTime() + 20 * 60_000).toISOString(),
      description,
      participant: [
        { actor: { reference: `Patient/${patientId}` }, status: 'accepted' },
        { actor: { reference: `Practitioner/${alice.id}` }, status: 'accepted' },
      ],
    });

    // The desk checks the patient in from the appointment's page.
    await page.goto(`/Appointment/${booked.id}`);
    const panel = main(page).getByRole('region', { name: 'Appointment' });
    await panel.getByRole('button', { name: 'Check in' }).click();
    await expect(page.getByText('Checked in', { exact: true }).first()).toBeVisible();

    await page.goto('/appointments/new');
    const here = main(page).getByRole('region', { name: 'Here today' });
    const row = here.getByRole('listitem').filter({ hasText: description });
    await expect(row).toBeVisible();
    await expect(row.getByTestId('appointment-status')).toHaveText('Arrived');
    await expect(row).toContainText(/arrived \d{1,2}:\d{2}\s?[AP]M, waiting (under a minute|\d+ min)/);
    await expect(row).toContainText(/appointment with .*Carter/);
    await expect(row.getByRole('link', { name: /Wendy/ })).toHaveAttribute('href', `/Patient/${patientId}`);
    // The front desk closes the visit; the visit note is the clinicians' (not offered under its policy).
    await expect(row.getByRole('link', { name: 'Visit note' })).toHaveCount(0);
    await row.getByRole('button', { name: 'Mark fulfilled' }).click();
    await expect(page.getByText('Marked fulfilled')).toBeVisible();
    await expect(row).toHaveCount(0);
    expect((await api(page, 'GET', `Appointment/${booked.id}`)).status).toBe('fulfilled');
    await api(page, 'DELETE', `Appointment/${booked.id}`);
  });
});
