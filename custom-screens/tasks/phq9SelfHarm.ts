import type {
  Coding,
  Questionnaire,
  QuestionnaireItem,
  QuestionnaireResponse,
  QuestionnaireResponseItem,
  QuestionnaireResponseItemAnswer,
} from '@medplum/fhirtypes';

const LOINC = 'http://loinc.org';
/** PHQ-9 item 9, "Thoughts that you would be better off dead, or of hurting yourself in some way". */
export const PHQ9_SELF_HARM_CODE = '44260-8';
/** LOINC answer LA6568-5 of answer list LL358-3: the only answer that is not a positive screen. */
const NOT_AT_ALL_CODE = 'LA6568-5';
const ORDINAL_VALUE = 'http://hl7.org/fhir/StructureDefinition/ordinalValue';
const ITEM_WEIGHT = 'http://hl7.org/fhir/StructureDefinition/itemWeight';

/** How often, as the alert's sentence says it, by the LL358-3 answer code. */
const FREQUENCY: Record<string, string> = {
  'LA6569-3': 'on several days',
  'LA6570-1': 'on more than half the days',
  'LA6571-9': 'nearly every day',
};

export interface SelfHarmFlag {
  /** The answer as given ("More than half the days"). */
  answer: string;
  /** What the clinician is told, e.g. "Item 9 positive: thoughts of self-harm on more than half the days. …". */
  message: string;
}

function codedItemLinkIds(items: QuestionnaireItem[] | undefined): string[] {
  return (items ?? []).flatMap((item) => [
    ...(item.code?.some((c) => c.code === PHQ9_SELF_HARM_CODE && (!c.system || c.system === LOINC))
      ? [item.linkId]
      : []),
    ...codedItemLinkIds(item.item),
  ]);
}

/**
 * Which response items are item 9. The questionnaire's LOINC code on the item is authoritative;
 * a questionnaire without it (or one not loaded yet — the alert must not wait for it) falls back
 * to the linkId, which PHQ-9 forms conventionally set to the LOINC code, bare or as a path.
 */
function isSelfHarmItem(questionnaire: Questionnaire | undefined): (linkId: string) => boolean {
  const coded = new Set(codedItemLinkIds(questionnaire?.item));
  if (coded.size > 0) return (linkId) => coded.has(linkId);
  return (linkId) => linkId === PHQ9_SELF_HARM_CODE || linkId.endsWith(`/${PHQ9_SELF_HARM_CODE}`);
}

function findItems(items: QuestionnaireResponseItem[] | undefined, match: (linkId: string) => boolean) {
  const found: QuestionnaireResponseItem[] = [];
  for (const item of items ?? []) {
    if (match(item.linkId)) found.push(item);
    found.push(...findItems(item.item, match));
    for (const answer of item.answer ?? []) found.push(...findItems(answer.item, match));
  }
  return found;
}

function questionnaireItems(items: QuestionnaireItem[] | undefined): QuestionnaireItem[] {
  return (items ?? []).flatMap((item) => [item, ...questionnaireItems(item.item)]);
}

/** The weight item 9 of the questionnaire gives a coded answer (ordinalValue or itemWeight), if it gives one. */
function weightOf(questionnaire: Questionnaire | undefined, linkId: string, coding: Coding): number | undefined {
  const definition = questionnaireItems(questionnaire?.item).find((item) => item.linkId === linkId);
  const option = definition?.answerOption?.find(
    (o) => o.valueCoding?.code === coding.code && (o.valueCoding?.system ?? '') === (coding.system ?? ''),
  );
  const extensions = [...(option?.extension ?? []), ...(option?.valueCoding?.extension ?? [])];
  return extensions.find((e) => e.url === ORDINAL_VALUE || e.url === ITEM_WEIGHT)?.valueDecimal;
}

function answerLabel(answer: QuestionnaireResponseItemAnswer): string {
  const coding = answer.valueCoding;
  if (coding) return coding.display ?? coding.code ?? '';
  return String(answer.valueString ?? answer.valueInteger ?? answer.valueDecimal ?? '');
}

/**
 * Whether an answer to item 9 says "never". Read by code first (displays get translated), then
 * by a weight of 0, then by the words; an answer none of these can read is treated as positive,
 * since missing a positive screen is the worse mistake.
 */
function isNotAtAll(
  answer: QuestionnaireResponseItemAnswer,
  linkId: string,
  questionnaire: Questionnaire | undefined,
): boolean {
  const coding = answer.valueCoding;
  if (coding?.code === NOT_AT_ALL_CODE) return true;
  if (coding && FREQUENCY[coding.code ?? '']) return false;
  if (coding && weightOf(questionnaire, linkId, coding) === 0) return true;
  if (answer.valueInteger === 0 || answer.valueDecimal === 0) return true;
  return answerLabel(answer).trim().toLowerCase() === 'not at all';
}

/**
 * A positive answer to PHQ-9 item 9 (any answer but "Not at all"), which must be acted on the
 * same day whatever the total score is. Undefined when item 9 is unanswered, answered "Not at
 * all", or the response has no item 9 (it is not a PHQ-9).
 */
export function phq9SelfHarmFlag(
  questionnaire: Questionnaire | undefined,
  response: QuestionnaireResponse,
): SelfHarmFlag | undefined {
  const answers = findItems(response.item, isSelfHarmItem(questionnaire)).flatMap((item) =>
    (item.answer ?? []).map((answer) => ({ answer, linkId: item.linkId })),
  );
  // An answer without a value is no answer: item 9 left blank raises nothing here.
  const given = answers.filter(({ answer }) => answerLabel(answer) !== '');
  const positive = given.find(({ answer, linkId }) => !isNotAtAll(answer, linkId, questionnaire))?.answer;
  if (!positive) return undefined;
  const answer = answerLabel(positive);
  const frequency = FREQUENCY[positive.valueCoding?.code ?? ''] ?? (answer ? `(answered “${answer}”)` : '');
  return {
    answer,
    message: `Item 9 positive: thoughts of self-harm${frequency ? ` ${frequency}` : ''}. Assess suicide risk today.`,
  };
}
