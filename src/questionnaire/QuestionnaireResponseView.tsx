import { Box, Stack, Typography } from '@mui/material';
import type { QuestionnaireResponse, QuestionnaireResponseItem } from '@medplum/fhirtypes';
import { formatDateTime } from '../../data-provider/formatting';
import { StatusBadge } from '../datatypes/StatusBadge';
import { useReferenceName } from '../datatypes/useReferenceName';
import { answerText } from './responseAnswers';

/** One question and its answers; free text keeps its line breaks and the whole width. */
function AnswerRow({ item }: { item: QuestionnaireResponseItem }) {
  const answers = (item.answer ?? []).map(answerText).filter(Boolean);
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: 'minmax(160px, 35%) 1fr' },
        gap: { xs: 0, sm: 2 },
        py: 0.75,
      }}
    >
      <Typography component="dt" variant="body2" color="text.secondary">
        {item.text ?? item.linkId}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {answers.join(', ')}
      </Typography>
    </Box>
  );
}

/** Whether an item, or anything under it, has an answer (unanswered questions are left out). */
function answered(item: QuestionnaireResponseItem): boolean {
  return (
    (item.answer ?? []).length > 0 ||
    (item.item ?? []).some(answered) ||
    (item.answer ?? []).some((answer) => (answer.item ?? []).some(answered))
  );
}

function Items({ items, level }: { items: QuestionnaireResponseItem[] | undefined; level: number }) {
  const shown = (items ?? []).filter(answered);
  return (
    <>
      {shown.map((item, index) => {
        const nested = [...(item.item ?? []), ...(item.answer ?? []).flatMap((answer) => answer.item ?? [])];
        if (!item.answer?.length) {
          // A group: its title as a heading, its questions under it.
          return (
            <Box
              component="section"
              key={`${item.linkId}-${index}`}
              aria-label={item.text ?? item.linkId}
              sx={{ mt: 2 }}
            >
              {item.text && (
                <Typography variant={level === 0 ? 'subtitle1' : 'subtitle2'} component={level === 0 ? 'h3' : 'h4'}>
                  {item.text}
                </Typography>
              )}
              <Items items={nested} level={level + 1} />
            </Box>
          );
        }
        return (
          <Box key={`${item.linkId}-${index}`} component="dl" sx={{ m: 0 }}>
            <AnswerRow item={item} />
            {nested.length > 0 && (
              <Box sx={{ pl: 2 }}>
                <Items items={nested} level={level + 1} />
              </Box>
            )}
          </Box>
        );
      })}
    </>
  );
}

/**
 * A questionnaire response read as the note it is: who wrote it and when, its status as a badge,
 * then each answered question with its answer in words ("Yes", a code's display, "15 Nov 2000"),
 * groups as headed sections. The Details tab used to show only the raw item tree: link ids, "true",
 * free text one word per line in a narrow column.
 */
export function QuestionnaireResponseView({ response }: { response: QuestionnaireResponse }) {
  const author = useReferenceName(response.author) ?? response.author?.display ?? response.author?.reference;
  const anyAnswer = (response.item ?? []).some(answered);
  return (
    <Box component="article" aria-label="Questionnaire response">
      <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
        <StatusBadge status={response.status} />
        <Typography variant="body2" color="text.secondary">
          {[response.authored && formatDateTime(response.authored), author && `by ${author}`].filter(Boolean).join(' ')}
        </Typography>
      </Stack>
      {anyAnswer ? (
        <Items items={response.item} level={0} />
      ) : (
        <Typography variant="body2" sx={{ mt: 1 }}>
          No answers
        </Typography>
      )}
    </Box>
  );
}
