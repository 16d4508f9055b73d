import { render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { QuestionnaireResponse } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { FhirClientContext } from '../resources/useFhirClient';
import { QuestionnaireResponseView } from './QuestionnaireResponseView';

const note: QuestionnaireResponse = {
  resourceType: 'QuestionnaireResponse',
  status: 'completed',
  authored: '2026-11-29T09:30:00Z',
  author: { reference: 'Practitioner/a', display: 'Alice Carter' },
  item: [
    { linkId: 'visit-date', text: 'Date of visit', answer: [{ valueDate: '2026-11-29' }] },
    {
      linkId: 'subjective',
      text: 'Subjective',
      item: [
        { linkId: 'hot-flashes', text: 'Hot flashes', answer: [{ valueBoolean: true }] },
        { linkId: 'mood', text: 'Mood changes', answer: [{ valueBoolean: false }] },
        { linkId: 'unanswered', text: 'Sleep problems' },
        { linkId: 'subjective-details', text: 'Details', answer: [{ valueString: 'Wakes twice a night.\nNo fever.' }] },
      ],
    },
    {
      linkId: 'assessment',
      text: 'Assessment',
      item: [
        {
          linkId: 'diagnosis',
          text: 'Diagnosis',
          answer: [
            { valueCoding: { system: 'http://snomed.info/sct', code: '160397006', display: 'Early menopause' } },
          ],
        },
      ],
    },
    { linkId: 'plan', text: 'Plan', item: [{ linkId: 'plan-text', text: 'Plan details' }] },
  ],
};

function renderView(response: QuestionnaireResponse) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <FhirClientContext.Provider value={{} as FhirClient}>
        <QuestionnaireResponseView response={response} />
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
}

describe('QuestionnaireResponseView', () => {
  it('reads as a note: status, when and by whom, questions with answers in words, groups as sections', () => {
    renderView(note);
    const view = screen.getByRole('article', { name: 'Questionnaire response' });
    expect(within(view).getByText('completed')).toBeInTheDocument();
    expect(view).toHaveTextContent(/by Alice Carter/);
    expect(within(view).getByText('Date of visit').nextElementSibling).toHaveTextContent(/^29 Nov 2026$/);
    const subjective = within(view).getByRole('region', { name: 'Subjective' });
    expect(within(subjective).getByRole('heading', { name: 'Subjective' })).toBeInTheDocument();
    expect(within(subjective).getByText('Hot flashes').nextElementSibling).toHaveTextContent(/^Yes$/);
    expect(within(subjective).getByText('Mood changes').nextElementSibling).toHaveTextContent(/^No$/);
    // Free text keeps its lines; unanswered questions and empty groups are left out.
    expect(within(subjective).getByText(/Wakes twice a night/).textContent).toBe('Wakes twice a night.\nNo fever.');
    expect(within(view).queryByText('Sleep problems')).toBeNull();
    expect(within(view).queryByRole('region', { name: 'Plan' })).toBeNull();
    expect(within(view).getByText('Diagnosis').nextElementSibling).toHaveTextContent(/^Early menopause$/);
    expect(view).not.toHaveTextContent('subjective-details');
    expect(view).not.toHaveTextContent('true');
  });

  it('says so when nothing was answered', () => {
    renderView({ resourceType: 'QuestionnaireResponse', status: 'in-progress', item: [{ linkId: 'q', text: 'Q' }] });
    expect(screen.getByText('No answers')).toBeInTheDocument();
    expect(screen.getByText('in-progress')).toBeInTheDocument();
  });
});
