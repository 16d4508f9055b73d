import { Link as RouterLink } from 'react-router-dom';
import { Alert, Box, Link, Typography } from '@mui/material';
import type { Questionnaire, QuestionnaireResponse } from '@medplum/fhirtypes';
import { formatDateTime } from '../../data-provider/formatting';
import { useReferenceName } from '../../src/datatypes/useReferenceName';
import { calculatedAnswers } from './calculatedAnswers';
import { phq9SelfHarmFlag } from './phq9SelfHarm';

/** "Submitted" for a finished response; a draft says it is one. */
function savedAs(response: QuestionnaireResponse): string {
  return response.status === 'completed' || response.status === 'amended' ? 'Submitted' : `Saved (${response.status})`;
}

/**
 * A task's response at a glance, above its answers: when it was submitted and by whom, its score
 * when its questionnaire calculates one, and a link to the whole response. A positive PHQ-9 item 9
 * comes first, above the score: a low total can hide it, and it needs acting on today.
 */
export function ResponseSummary({
  response,
  questionnaire,
  patientId,
}: {
  response: QuestionnaireResponse;
  questionnaire: Questionnaire | undefined;
  patientId: string | undefined;
}) {
  const authorName = useReferenceName(response.author);
  const who = response.author ? (authorName ?? response.author.display ?? response.author.reference) : undefined;
  const scores = calculatedAnswers(questionnaire, response);
  const selfHarm = phq9SelfHarmFlag(questionnaire, response);
  const path = `${patientId ? `/Patient/${patientId}` : ''}/QuestionnaireResponse/${response.id}`;
  return (
    <Box component="section" aria-labelledby="task-response-heading" sx={{ mt: 2 }}>
      <Typography variant="subtitle1" component="h3" id="task-response-heading">
        Response
      </Typography>
      <Typography variant="body2">
        {savedAs(response)}
        {response.authored && ` ${formatDateTime(response.authored)}`}
        {who && ` by ${who}`}
      </Typography>
      {selfHarm && (
        <Alert severity="error" role="alert" variant="filled" sx={{ my: 1 }}>
          {selfHarm.message}
        </Alert>
      )}
      {scores.map((score) => (
        <Typography key={score.linkId} variant="body2">
          {score.question}: <strong>{score.answer}</strong>
        </Typography>
      ))}
      {response.id && (
        <Link component={RouterLink} to={path} variant="body2">
          Open response
        </Link>
      )}
    </Box>
  );
}
