import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Box, Button, Link, Stack, Typography } from '@mui/material';
import type { QuestionnaireResponse, Task } from '@medplum/fhirtypes';
import { formatCodeableConcept, formatDate, formatDateTime, getDisplayString } from '../../data-provider/formatting';
import { StatusBadge } from '../../src/datatypes/StatusBadge';
import { TASK_DETAIL_ANSWERS } from '../../config/clinical/taskLayout';
import { answeredQuestions, useResponseQuestionnaire } from '../../src/questionnaire';
import { ResponseSummary } from './ResponseSummary';
import { useFocus } from './useTask';
import { useTaskResponse } from './useTaskResponse';
import { taskDueState } from './taskDueDate';
import { usePatient } from './usePatient';
import type { Resource } from '@medplum/fhirtypes';

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box component="div" sx={{ display: 'grid', gridTemplateColumns: '140px 1fr', gap: 1, py: 0.5 }}>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-word' }}>
        {children}
      </Typography>
    </Box>
  );
}

function ResponseAnswers({ response }: { response: QuestionnaireResponse }) {
  const [all, setAll] = useState(false);
  const answers = answeredQuestions(response);
  const shown = all ? answers : answers.slice(0, TASK_DETAIL_ANSWERS);
  return (
    <Box component="section" aria-label="Response answers" sx={{ mt: 2 }}>
      <Typography variant="subtitle1" component="h3">
        Answers
      </Typography>
      {answers.length === 0 && <Typography variant="body2">No answers</Typography>}
      <Box component="dl" sx={{ m: 0 }}>
        {shown.map((item, index) => (
          <Row key={`${item.linkId}-${index}`} label={item.question}>
            {item.answer}
          </Row>
        ))}
      </Box>
      {answers.length > TASK_DETAIL_ANSWERS && (
        <Button size="small" onClick={() => setAll(!all)} aria-expanded={all}>
          {all ? 'Show less' : 'Show more'}
        </Button>
      )}
    </Box>
  );
}

function referenceLink(
  reference: { reference?: string; display?: string } | undefined,
  patientId?: string,
  loaded?: string,
) {
  if (!reference?.reference) return reference?.display ?? '';
  const path = patientId ? `/Patient/${patientId}/${reference.reference}` : `/${reference.reference}`;
  return (
    <Link component={RouterLink} to={path}>
      {reference.display ?? loaded ?? reference.reference}
    </Link>
  );
}

/** How the task's focus reads: a response by its date, anything else by its display string. */
function focusLabel(resource: Resource | undefined): string | undefined {
  if (!resource) return undefined;
  if (resource.resourceType === 'QuestionnaireResponse') {
    return `Questionnaire response, ${resource.status}${resource.authored ? `, ${formatDateTime(resource.authored)}` : ''}`;
  }
  if (resource.resourceType === 'Questionnaire') return resource.title ?? resource.name ?? 'Questionnaire';
  return getDisplayString(resource);
}

/** The Details tab: what the task is, whose it is, when it is due and what it is about. */
export function TaskDetails({ task, patientId }: { task: Task; patientId: string | undefined }) {
  const focus = useFocus(task);
  const response = useTaskResponse(task);
  const questionnaire = useResponseQuestionnaire(response.data, focus.data);
  const patient = usePatient(task.for?.display ? undefined : task.for?.reference);
  const due = task.restriction?.period?.end;
  const dueState = taskDueState(due, task.status);
  return (
    <Box>
      <Box component="dl" sx={{ m: 0 }}>
        <Row label="Status">
          <Stack direction="row" spacing={1} component="span" alignItems="center">
            <StatusBadge status={task.status} />
            {task.businessStatus && <span>{formatCodeableConcept(task.businessStatus)}</span>}
          </Stack>
        </Row>
        {task.code && <Row label="Task">{formatCodeableConcept(task.code)}</Row>}
        {task.description && <Row label="Description">{task.description}</Row>}
        <Row label="Owner">{task.owner ? referenceLink(task.owner) : 'Unassigned'}</Row>
        {task.performerType?.length ? (
          <Row label="Roles">{task.performerType.map(formatCodeableConcept).join(', ')}</Row>
        ) : null}
        <Row label="Due">
          {due ? (
            <Box
              component="span"
              sx={{
                color: dueState === 'overdue' ? 'error.main' : undefined,
                fontWeight: dueState === 'none' || dueState === 'finished' ? undefined : 600,
              }}
            >
              {formatDate(due)}
              {dueState === 'overdue' ? ' (overdue)' : dueState === 'today' ? ' (today)' : ''}
            </Box>
          ) : (
            'No due date'
          )}
        </Row>
        {task.for && (
          <Row label="For">{referenceLink(task.for, undefined, patient.data && getDisplayString(patient.data))}</Row>
        )}
        {task.focus && <Row label="Focus">{referenceLink(task.focus, patientId, focusLabel(focus.data))}</Row>}
        {task.authoredOn && <Row label="Created">{formatDateTime(task.authoredOn)}</Row>}
        {task.priority && <Row label="Priority">{task.priority}</Row>}
      </Box>
      {focus.error && (
        <Typography variant="body2" color="error" sx={{ mt: 1 }}>
          Could not load the focus: {focus.error.message}
        </Typography>
      )}
      {response.error && (
        <Typography variant="body2" color="error" sx={{ mt: 1 }}>
          Could not load the response: {response.error.message}
        </Typography>
      )}
      {response.data && (
        <>
          <ResponseSummary response={response.data} questionnaire={questionnaire} patientId={patientId} />
          <ResponseAnswers response={response.data} />
        </>
      )}
    </Box>
  );
}
