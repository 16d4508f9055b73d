import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Observation } from '@medplum/fhirtypes';
import { renderSummary, summaryServer } from './summaryTestSupport';

async function openVitals() {
  const user = userEvent.setup();
  const server = summaryServer();
  renderSummary(server);
  await user.click(await screen.findByRole('button', { name: 'Record vitals' }));
  const dialog = screen.getByRole('dialog', { name: 'Record vitals' });
  const field = (name: string) => within(dialog).getByRole('textbox', { name });
  return { user, server, dialog, field };
}

describe('Vitals modal: values a body cannot measure', { timeout: 30_000 }, () => {
  it('refuses the QA walk’s values with a message under each field, posts nothing and keeps them all', async () => {
    const { user, server, dialog, field } = await openVitals();
    await user.type(field('Systolic BP'), '80');
    await user.type(field('Diastolic BP'), '120');
    await user.type(field('Temperature'), '98.6');
    await user.type(field('Oxygen saturation'), '140');
    await user.type(field('Heart rate'), '72');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(field('Temperature')).toHaveAccessibleDescription('Temperature 98.6 looks like °F: enter °C (37.0)');
    expect(field('Temperature')).toHaveAttribute('aria-invalid', 'true');
    expect(field('Oxygen saturation')).toHaveAccessibleDescription('Oxygen saturation must be between 50 and 100 %');
    expect(field('Diastolic BP')).toHaveAccessibleDescription('Diastolic must be lower than systolic');
    expect(field('Heart rate')).toHaveAttribute('aria-invalid', 'false');
    expect(server.posted('Observation')).toEqual([]);
    expect(screen.queryByText(/Vitals saved/)).not.toBeInTheDocument();
    expect(field('Systolic BP')).toHaveValue('80');
    expect(field('Diastolic BP')).toHaveValue('120');
    expect(field('Temperature')).toHaveValue('98.6');
    expect(field('Oxygen saturation')).toHaveValue('140');
    expect(field('Heart rate')).toHaveValue('72');
  });

  it('saves once corrected; correcting the systolic clears the pair’s message under the diastolic', async () => {
    const { user, server, dialog, field } = await openVitals();
    await user.type(field('Systolic BP'), '80');
    await user.type(field('Diastolic BP'), '120');
    await user.type(field('Temperature'), '98.6');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(field('Diastolic BP')).toHaveAccessibleDescription('Diastolic must be lower than systolic');

    await user.clear(field('Systolic BP'));
    await user.type(field('Systolic BP'), '130');
    expect(field('Diastolic BP')).toHaveAttribute('aria-invalid', 'false');
    await user.clear(field('Diastolic BP'));
    await user.type(field('Diastolic BP'), '85');
    await user.clear(field('Temperature'));
    await user.type(field('Temperature'), '37');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await screen.findByText('Vitals saved (2)');
    const posted = server.posted('Observation') as Observation[];
    expect(posted.find((o) => o.code.coding?.[0]?.code === '8310-5')?.valueQuantity?.value).toBe(37);
    const bp = posted.find((o) => o.code.coding?.[0]?.code === '85354-9');
    expect(bp?.component?.map((c) => c.valueQuantity?.value)).toEqual([130, 85]);
  });

  it('refuses a value outside a vital’s limits even when it is the only one', async () => {
    const { user, server, dialog, field } = await openVitals();
    await user.type(field('Heart rate'), '400');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(field('Heart rate')).toHaveAccessibleDescription('Heart rate must be between 20 and 300 /min');
    expect(server.posted('Observation')).toEqual([]);
    expect(field('Heart rate')).toHaveValue('400');
  });
});
