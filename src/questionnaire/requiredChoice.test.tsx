import { render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Questionnaire } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { FhirClientContext } from '../resources/useFhirClient';
import { phq9 } from '../../config/questionnaires/phq9';
import { QuestionnaireForm } from './QuestionnaireForm';

const symptoms: Questionnaire = {
  resourceType: 'Questionnaire',
  status: 'active',
  title: 'Symptoms',
  item: [
    {
      linkId: 'symptoms',
      text: 'Symptoms this week',
      type: 'choice',
      repeats: true,
      required: true,
      answerOption: ['Hot flashes', 'Night sweats', 'Low mood'].map((display) => ({
        valueCoding: { code: display.toLowerCase().replace(' ', '-'), display },
      })),
    },
    { linkId: 'smoker', text: 'Smokes', type: 'boolean', required: true },
  ],
};

function renderForm(questionnaire: Questionnaire) {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <FhirClientContext.Provider value={{} as FhirClient}>
        <QuestionnaireForm questionnaire={questionnaire} onSubmit={() => undefined} />
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
}

/** The question's box, and how many asterisks it shows anywhere inside. */
function asterisks(linkId: string) {
  const box = document.querySelector(`[data-linkid="${linkId}"]`) as HTMLElement;
  return { box, count: (box.textContent ?? '').split('*').length - 1 };
}

describe('a required choice question is marked once, on its question', () => {
  it('PHQ-9 radio buttons: one asterisk on the question, none on the options; the radiogroup is required', async () => {
    renderForm(phq9);
    // The form shows once its calculated score has been worked out.
    const group = await screen.findByRole('radiogroup', { name: 'Little interest or pleasure in doing things' });
    const { box, count } = asterisks('44250-9');
    expect(count).toBe(1);
    expect(box.querySelector('label')).toHaveTextContent('Little interest or pleasure in doing things *');
    expect(group).toBeRequired();
    for (const option of ['Not at all', 'Several days', 'More than half the days', 'Nearly every day']) {
      expect(within(group).getByText(option).textContent).toBe(option);
      expect(within(group).getByRole('radio', { name: option })).not.toBeRequired();
    }
  });

  it('check boxes: one asterisk on the question; the group is named as required', () => {
    renderForm(symptoms);
    const { box, count } = asterisks('symptoms');
    expect(count).toBe(1);
    expect(box.querySelector('label')).toHaveTextContent('Symptoms this week *');
    const group = screen.getByRole('group', { name: 'Symptoms this week required' });
    expect(within(group).getAllByRole('checkbox')).toHaveLength(3);
  });

  it('Yes / No: one asterisk on the question, not on "Yes"; the radiogroup is required', () => {
    renderForm(symptoms);
    const { box, count } = asterisks('smoker');
    expect(count).toBe(1);
    expect(box.querySelector('label')).toHaveTextContent('Smokes *');
    const group = screen.getByRole('radiogroup', { name: 'Smokes' });
    expect(group).toBeRequired();
    expect(within(group).getByRole('radio', { name: 'Yes' })).not.toBeRequired();
  });

  it('an optional choice question has no asterisk and no required group', () => {
    renderForm({ ...symptoms, item: symptoms.item?.map((item) => ({ ...item, required: false })) });
    expect(asterisks('symptoms').count).toBe(0);
    expect(asterisks('smoker').count).toBe(0);
    expect(screen.getByRole('group', { name: 'Symptoms this week' })).toBeInTheDocument();
    expect(screen.getByRole('radiogroup', { name: 'Smokes' })).not.toBeRequired();
  });
});
