import { useState } from 'react';
import { Alert, Box, Button, Typography } from '@mui/material';
import type { Questionnaire, QuestionnaireResponse } from '@medplum/fhirtypes';
import { QuestionnaireForm } from './QuestionnaireForm';
import { validateResponse } from './validateResponse';

/**
 * The Preview tab of a Questionnaire: fill it in as a patient or clinician would. Nothing is
 * saved; submitting shows the response the form would store and whether it fits the questionnaire.
 */
export function QuestionnairePreview({ questionnaire }: { questionnaire: Questionnaire }) {
  const [response, setResponse] = useState<QuestionnaireResponse | undefined>();
  const [round, setRound] = useState(0);
  if (response) {
    const issues = validateResponse(questionnaire, response);
    return (
      <Box>
        <Alert severity={issues.length ? 'error' : 'success'} sx={{ mb: 2 }}>
          {issues.length
            ? issues.map((issue) => `${issue.expression}: ${issue.message}`).join('\n')
            : 'This response is valid against the questionnaire. Nothing was saved.'}
        </Alert>
        <Typography variant="subtitle1" component="h3">
          The response
        </Typography>
        <Box
          component="pre"
          tabIndex={0}
          aria-label="QuestionnaireResponse JSON"
          sx={{ fontSize: 13, overflow: 'auto', maxHeight: 400, p: 1, bgcolor: 'action.hover', borderRadius: 1 }}
        >
          {JSON.stringify(response, null, 2)}
        </Box>
        <Button
          sx={{ mt: 1 }}
          onClick={() => {
            setResponse(undefined);
            setRound(round + 1);
          }}
        >
          Fill in again
        </Button>
      </Box>
    );
  }
  return (
    <Box>
      <Alert severity="info" sx={{ mb: 2 }}>
        Preview: try the form. Nothing is saved.
      </Alert>
      <QuestionnaireForm key={round} questionnaire={questionnaire} onSubmit={setResponse} />
    </Box>
  );
}
