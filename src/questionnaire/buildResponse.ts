import type {
  Questionnaire,
  QuestionnaireItem,
  QuestionnaireResponse,
  QuestionnaireResponseItem,
  Reference,
} from '@medplum/fhirtypes';
import { childPath, groupInstancePaths, type FormState } from './formState';
import { computeEnablement } from './enablement';

export interface ResponseContext {
  status: QuestionnaireResponse['status'];
  subject?: Reference;
  source?: QuestionnaireResponse['source'];
  author?: QuestionnaireResponse['author'];
  encounter?: QuestionnaireResponse['encounter'];
  basedOn?: QuestionnaireResponse['basedOn'];
  /** Defaults to now. */
  authored?: string;
  /** Keeps the id and meta of the draft being continued. */
  existing?: QuestionnaireResponse;
}

/** The canonical reference a response uses for its questionnaire: url|version, else Questionnaire/id. */
export function questionnaireCanonical(questionnaire: Questionnaire): string | undefined {
  if (questionnaire.url)
    return questionnaire.version ? `${questionnaire.url}|${questionnaire.version}` : questionnaire.url;
  return questionnaire.id ? `Questionnaire/${questionnaire.id}` : undefined;
}

/**
 * The QuestionnaireResponse for what was entered: enabled items only, in the questionnaire's
 * order, groups nested, a question's children under its first answer, empty groups left out.
 * Display items carry no answers and are not part of a response.
 */
export function buildResponse(
  questionnaire: Questionnaire,
  state: FormState,
  context: ResponseContext,
  expressionResults: Record<string, boolean> = {},
): QuestionnaireResponse {
  const { enabled } = computeEnablement(questionnaire, state, expressionResults);

  const build = (items: QuestionnaireItem[] | undefined, parent: string): QuestionnaireResponseItem[] =>
    (items ?? []).flatMap((item): QuestionnaireResponseItem[] => {
      if (item.type === 'display') return [];
      if (item.type === 'group') {
        return groupInstancePaths(state, parent, item).flatMap((path) => {
          if (!enabled.get(path)) return [];
          const children = build(item.item, path);
          return children.length
            ? [{ linkId: item.linkId, ...(item.text ? { text: item.text } : {}), item: children }]
            : [];
        });
      }
      const path = childPath(parent, item.linkId);
      if (!enabled.get(path)) return [];
      const answers = state.answers[path] ?? [];
      if (answers.length === 0) return [];
      const children = build(item.item, path);
      return [
        {
          linkId: item.linkId,
          ...(item.text ? { text: item.text } : {}),
          answer: answers.map((answer, index) =>
            index === 0 && children.length ? { ...answer, item: children } : { ...answer },
          ),
        },
      ];
    });

  const existing = context.existing;
  const response: QuestionnaireResponse = {
    resourceType: 'QuestionnaireResponse',
    ...(existing?.id ? { id: existing.id } : {}),
    ...(existing?.meta ? { meta: existing.meta } : {}),
    questionnaire: questionnaireCanonical(questionnaire),
    status: context.status,
    ...(context.subject ? { subject: context.subject } : {}),
    ...(context.encounter ? { encounter: context.encounter } : {}),
    ...(context.basedOn?.length ? { basedOn: context.basedOn } : {}),
    authored: context.authored ?? new Date().toISOString(),
    ...(context.author ? { author: context.author } : {}),
    ...(context.source ? { source: context.source } : {}),
    item: build(questionnaire.item, ''),
  };
  if (response.item?.length === 0) delete response.item;
  return response;
}
