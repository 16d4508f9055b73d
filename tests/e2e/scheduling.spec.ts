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
