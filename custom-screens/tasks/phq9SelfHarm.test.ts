import { describe, expect, it } from 'vitest';
import type { Questionnaire, QuestionnaireResponse, QuestionnaireResponseItemAnswer } from '@medplum/fhirtypes';
import { phq9 } from '../../config/questionnaires/phq9';
import { soapNoteMenopauseQuestionnaire } from '../../config/questionnaires';
import { phq9SelfHarmFlag } from './phq9SelfHarm';

const OPTIONS = phq9.item?.[0].item?.[8].answerOption ?? [];
const option = (display: string) => {
  const coding = OPTIONS.find((o) => o.valueCoding?.display === display)?.valueCoding;
  if (!coding) throw new Error(`No PHQ-9 answer ${display}`);
  return coding;
};

/** A PHQ-9 response as the form stores it: the first eight "Not at all", item 9 as given. */
function phqResponse(item9: QuestionnaireResponseItemAnswer[] | undefined): QuestionnaireResponse {
  return {
    resourceType: 'QuestionnaireResponse',
    status: 'completed',
    item: [
      {
        linkId: 'phq9-items',
        item: phq9.item?.[0].item?.map((item, index) => ({
          linkId: item.linkId,
          text: item.text,
          answer: index === 8 ? item9 : [{ valueCoding: option('Not at all') }],
        })),
      },
    ],
  };
}

describe('phq9SelfHarmFlag: PHQ-9 item 9 (LOINC 44260-8)', () => {
  it('flags every answer but "Not at all", saying how often', () => {
    expect(phq9SelfHarmFlag(phq9, phqResponse([{ valueCoding: option('More than half the days') }]))).toEqual({
      answer: 'More than half the days',
      message: 'Item 9 positive: thoughts of self-harm on more than half the days. Assess suicide risk today.',
    });
    expect(phq9SelfHarmFlag(phq9, phqResponse([{ valueCoding: option('Several days') }]))?.message).toBe(
      'Item 9 positive: thoughts of self-harm on several days. Assess suicide risk today.',
    );
    expect(phq9SelfHarmFlag(phq9, phqResponse([{ valueCoding: option('Nearly every day') }]))?.message).toBe(
      'Item 9 positive: thoughts of self-harm nearly every day. Assess suicide risk today.',
    );
  });

  it('raises nothing for "Not at all", whether read by code, by its weight or by its words', () => {
    expect(phq9SelfHarmFlag(phq9, phqResponse([{ valueCoding: option('Not at all') }]))).toBeUndefined();
    expect(
      phq9SelfHarmFlag(phq9, phqResponse([{ valueCoding: { code: 'LA6568-5', system: 'http://loinc.org' } }])),
    ).toBeUndefined();
    expect(phq9SelfHarmFlag(undefined, phqResponse([{ valueString: 'Not at all' }]))).toBeUndefined();
    const weighted: Questionnaire = {
      resourceType: 'Questionnaire',
      status: 'active',
      item: [
        {
          linkId: 'q9',
          code: [{ system: 'http://loinc.org', code: '44260-8' }],
          type: 'choice',
          answerOption: [
            {
              valueCoding: { system: 'urn:local', code: 'never', display: 'Nie' },
              extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/ordinalValue', valueDecimal: 0 }],
            },
          ],
        },
      ],
    };
    const never: QuestionnaireResponse = {
      resourceType: 'QuestionnaireResponse',
      status: 'completed',
      item: [{ linkId: 'q9', answer: [{ valueCoding: { system: 'urn:local', code: 'never', display: 'Nie' } }] }],
    };
    expect(phq9SelfHarmFlag(weighted, never)).toBeUndefined();
  });

  it('raises nothing while item 9 is unanswered', () => {
    expect(phq9SelfHarmFlag(phq9, phqResponse(undefined))).toBeUndefined();
    expect(phq9SelfHarmFlag(phq9, phqResponse([]))).toBeUndefined();
    expect(phq9SelfHarmFlag(phq9, phqResponse([{}]))).toBeUndefined();
  });

  it('finds item 9 by its LOINC code on the questionnaire item, whatever its linkId', () => {
    const renamed: Questionnaire = {
      ...phq9,
      item: [
        {
          ...phq9.item?.[0],
          linkId: 'phq9-items',
          type: 'group',
          item: phq9.item?.[0].item?.map((item, i) => ({ ...item, linkId: `q${i + 1}` })),
        },
      ],
    };
    const response: QuestionnaireResponse = {
      resourceType: 'QuestionnaireResponse',
      status: 'completed',
      item: [
        {
          linkId: 'phq9-items',
          item: [
            { linkId: 'q1', answer: [{ valueCoding: option('Nearly every day') }] },
            { linkId: 'q9', answer: [{ valueCoding: option('Several days') }] },
          ],
        },
      ],
    };
    expect(phq9SelfHarmFlag(renamed, response)?.answer).toBe('Several days');
    // Item 1 "Nearly every day" is not item 9.
    expect(
      phq9SelfHarmFlag(renamed, {
        ...response,
        item: [{ ...response.item?.[0], linkId: 'phq9-items', item: response.item?.[0].item?.slice(0, 1) }],
      }),
    ).toBeUndefined();
  });

  it('without the questionnaire (not loaded yet) finds item 9 by its linkId', () => {
    expect(phq9SelfHarmFlag(undefined, phqResponse([{ valueCoding: option('More than half the days') }]))?.answer).toBe(
      'More than half the days',
    );
    const pathLinkId: QuestionnaireResponse = {
      resourceType: 'QuestionnaireResponse',
      status: 'completed',
      item: [{ linkId: '/44249-1/44260-8', answer: [{ valueString: 'Sometimes' }] }],
    };
    expect(phq9SelfHarmFlag(undefined, pathLinkId)?.message).toBe(
      'Item 9 positive: thoughts of self-harm (answered “Sometimes”). Assess suicide risk today.',
    );
  });

  it('raises nothing for a questionnaire that is not a PHQ-9', () => {
    const note: QuestionnaireResponse = {
      resourceType: 'QuestionnaireResponse',
      status: 'completed',
      item: [
        { linkId: 'visit-date', answer: [{ valueDate: '2023-10-19' }] },
        { linkId: 'subjective', item: [{ linkId: 'mood-swings', answer: [{ valueBoolean: true }] }] },
      ],
    };
    expect(phq9SelfHarmFlag(soapNoteMenopauseQuestionnaire, note)).toBeUndefined();
    expect(phq9SelfHarmFlag(undefined, note)).toBeUndefined();
  });
});
