import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { Questionnaire, QuestionnaireResponse, ValueSet } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { FhirClientContext } from '../resources/useFhirClient';
import { QuestionnaireForm } from './QuestionnaireForm';
import { newPatientIntake } from '../../config/questionnaires/newPatientIntake';
import { soapNoteMenopauseQuestionnaire } from '../../config/questionnaires';

function renderForm(questionnaire: Questionnaire, props: Partial<React.ComponentProps<typeof QuestionnaireForm>> = {}) {
  const onSubmit = vi.fn<(response: QuestionnaireResponse) => void>();
  const onChange = vi.fn<(response: QuestionnaireResponse) => void>();
  const client = {
    valueSetExpand: vi.fn(async (): Promise<ValueSet> => ({
      resourceType: 'ValueSet',
      status: 'active',
      expansion: { timestamp: '2026-01-01', contains: [{ system: 'urn:ietf:bcp:47', code: 'fr', display: 'French' }] },
    })),
  } as unknown as FhirClient;
  render(
    <QueryClientProvider client={new QueryClient()}>
      <FhirClientContext.Provider value={client}>
        <QuestionnaireForm questionnaire={questionnaire} onSubmit={onSubmit} onChange={onChange} {...props} />
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
  return { onSubmit, onChange, client };
}

describe('QuestionnaireForm', () => {
  it('pages: Next stays on a page with a missing required answer, then moves on; Back keeps answers', async () => {
    const user = userEvent.setup({ delay: null });
    const { onSubmit, client } = renderForm(newPatientIntake);
    const form = await screen.findByRole('form', { name: 'New patient intake' });
    expect(within(form).getByText('Page 1 of 3')).toBeInTheDocument();
    expect(within(form).getByLabelText('Clinic location')).toHaveValue('No Answers Defined');
    expect(within(form).getByLabelText('Clinic location')).toBeDisabled();
    await user.click(within(form).getByRole('button', { name: 'Next' }));
    expect(within(form).getByText('Page 1 of 3')).toBeInTheDocument();
    expect(within(form).getAllByText('Required')).toHaveLength(2);

    await user.type(within(form).getByLabelText(/^Preferred name/), 'Sam');
    await user.type(within(form).getByLabelText(/^Date of birth/), '1971-03-04');
    // The language comes from the server's $expand of the answerValueSet.
    await user.click(within(form).getByLabelText('Preferred language'));
    await user.click(await screen.findByRole('option', { name: 'French' }));
    expect(client.valueSetExpand).toHaveBeenCalledWith(
      expect.objectContaining({ url: 'http://hl7.org/fhir/ValueSet/languages' }),
      expect.anything(),
    );
    await user.click(within(form).getByRole('button', { name: 'Next' }));
    expect(await within(form).findByText('Page 2 of 3')).toBeInTheDocument();

    await user.type(within(form).getByLabelText(/^Body weight/), '80');
    await user.type(within(form).getByRole('spinbutton', { name: /^Body height/ }), '180');
    await waitFor(() => expect(within(form).getByLabelText(/^BMI/)).toHaveValue(80 / 1.8 ** 2));
    expect(within(form).getByLabelText(/^BMI/)).toHaveAttribute('readonly');
    await user.click(within(form).getByRole('button', { name: 'Back' }));
    expect(within(form).getByLabelText(/^Preferred name/)).toHaveValue('Sam');
    await user.click(within(form).getByRole('button', { name: 'Next' }));
    await user.click(within(form).getByRole('button', { name: 'Next' }));
    expect(await within(form).findByText('Page 3 of 3')).toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Submit' }));
    expect(onSubmit).not.toHaveBeenCalled();
    const agree = within(form).getByRole('radiogroup', { name: /I agree to be contacted/ });
    await user.click(within(agree).getByRole('radio', { name: 'Yes' }));
    await user.click(within(form).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    const response = onSubmit.mock.calls[0][0];
    expect(response.status).toBe('completed');
    expect(response.item?.map((item) => item.linkId)).toEqual(['about', 'vitals', 'consent']);
    expect(response.item?.[0].item?.find((i) => i.linkId === 'language')?.answer).toEqual([
      { valueCoding: { system: 'urn:ietf:bcp:47', code: 'fr', display: 'French' } },
    ]);
  }, 30_000);

  it('pages: a resumed draft opens on the last page it answers; Submit there goes back to an unfinished page', async () => {
    const user = userEvent.setup({ delay: null });
    // Answers on pages 1 (name only: the date of birth is still missing) and 2.
    const draft: QuestionnaireResponse = {
      resourceType: 'QuestionnaireResponse',
      status: 'in-progress',
      item: [
        { linkId: 'about', item: [{ linkId: 'preferred-name', answer: [{ valueString: 'Sam' }] }] },
        {
          linkId: 'vitals',
          item: [
            { linkId: 'weight', answer: [{ valueDecimal: 80 }] },
            {
              linkId: 'height',
              answer: [{ valueQuantity: { value: 180, unit: 'cm', system: 'http://unitsofmeasure.org', code: 'cm' } }],
            },
          ],
        },
      ],
    };
    const { onSubmit } = renderForm(newPatientIntake, { response: draft });
    const form = await screen.findByRole('form', { name: 'New patient intake' });
    expect(within(form).getByText('Page 2 of 3')).toBeInTheDocument();
    expect(within(form).getByLabelText(/^Body weight/)).toHaveValue(80);

    await user.click(within(form).getByRole('button', { name: 'Next' }));
    expect(await within(form).findByText('Page 3 of 3')).toBeInTheDocument();
    const agree = within(form).getByRole('radiogroup', { name: /I agree to be contacted/ });
    await user.click(within(agree).getByRole('radio', { name: 'Yes' }));
    await user.click(within(form).getByRole('button', { name: 'Submit' }));
    // The date of birth on page 1 was never answered: the form takes them there and says so.
    expect(await within(form).findByText('Page 1 of 3')).toBeInTheDocument();
    expect(within(form).getByLabelText(/^Preferred name/)).toHaveValue('Sam');
    expect(within(form).getByText('Required')).toBeInTheDocument();
    expect(within(form).getByText('One answer needs attention.')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  }, 30_000);

  it('offers every change as an in-progress response and resumes a saved one', async () => {
    const user = userEvent.setup({ delay: null });
    const { onChange } = renderForm(soapNoteMenopauseQuestionnaire);
    const details = await screen.findByLabelText('Details');
    await user.type(details, 'Night sweats');
    await waitFor(() => expect(onChange).toHaveBeenCalled());
    const draft = onChange.mock.calls.at(-1)?.[0] as QuestionnaireResponse;
    expect(draft.status).toBe('in-progress');
    expect(JSON.stringify(draft)).toContain('Night sweats');
    await user.click(screen.getByRole('checkbox', { name: 'Stroke' }));
    await user.type(screen.getByLabelText('Self-reported history: other'), 'Migraine');

    document.body.innerHTML = '';
    renderForm(soapNoteMenopauseQuestionnaire, { response: onChange.mock.calls.at(-1)?.[0] });
    expect(await screen.findByLabelText('Details')).toHaveValue('Night sweats');
    expect(screen.getByRole('checkbox', { name: 'Stroke' })).toBeChecked();
    expect(screen.getByLabelText('Self-reported history: other')).toHaveValue('Migraine');
    expect(screen.getByLabelText('Date of visit')).toHaveValue('2023-10-19');
  }, 30_000);

  it('shows a question only while its enableWhen holds', async () => {
    const user = userEvent.setup({ delay: null });
    const questionnaire: Questionnaire = {
      resourceType: 'Questionnaire',
      status: 'active',
      item: [
        { linkId: 'pain', text: 'Any pain?', type: 'boolean' },
        {
          linkId: 'score',
          text: 'Pain score',
          type: 'integer',
          required: true,
          enableWhen: [{ question: 'pain', operator: '=', answerBoolean: true }],
        },
      ],
    };
    const { onSubmit } = renderForm(questionnaire);
    const pain = await screen.findByRole('radiogroup', { name: 'Any pain?' });
    expect(screen.queryByLabelText(/Pain score/)).not.toBeInTheDocument();
    await user.click(within(pain).getByRole('radio', { name: 'Yes' }));
    expect(screen.getByLabelText(/Pain score/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByText('Required')).toBeInTheDocument();
    await user.click(within(pain).getByRole('radio', { name: 'No' }));
    expect(screen.queryByLabelText(/Pain score/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0][0].item).toEqual([
      { linkId: 'pain', text: 'Any pain?', answer: [{ valueBoolean: false }] },
    ]);
  }, 30_000);
});
