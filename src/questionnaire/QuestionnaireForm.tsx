import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Alert, Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import type { Questionnaire, QuestionnaireResponse, Reference } from '@medplum/fhirtypes';
import { buildResponse } from './buildResponse';
import type { LaunchContext } from './expressionEvaluation';
import { itemErrors } from './itemValidation';
import { isPaged, nextPage, pageOfPath, pagePath, pages, resumePage } from './paging';
import { QuestionnaireItems, fieldId, type ItemsContext } from './QuestionnaireItems';
import { useQuestionnaireState } from './useQuestionnaireState';

export interface QuestionnaireFormProps {
  questionnaire: Questionnaire;
  /** A saved response (a draft) to continue from. */
  response?: QuestionnaireResponse;
  /** Resources the questionnaire's launchContext may name (`patient`, `user`, `encounter`). */
  launchContext?: LaunchContext;
  subject?: Reference;
  author?: QuestionnaireResponse['author'];
  encounter?: QuestionnaireResponse['encounter'];
  basedOn?: QuestionnaireResponse['basedOn'];
  /** Called with the in-progress response after every change (for drafts). */
  onChange?: (response: QuestionnaireResponse) => void;
  /** Called with the completed response when every enabled required item is answered. */
  onSubmit: (response: QuestionnaireResponse) => void | Promise<void>;
  submitLabel?: string;
  /** Shows the questionnaire's title above the form (default true). */
  showTitle?: boolean;
  /** Disables every input and button (while saving). */
  disabled?: boolean;
}

/**
 * Renders any Questionnaire (SDC): flat, or page by page when its top-level groups carry the
 * `page` item control, with Back / Next / Submit; Next and Submit go ahead only when the page's
 * (or the form's) enabled items are valid, else the problems show under their fields.
 */
export function QuestionnaireForm(props: QuestionnaireFormProps) {
  const { questionnaire } = props;
  const launch = useMemo(() => props.launchContext ?? {}, [props.launchContext]);
  const handle = useQuestionnaireState(questionnaire, props.response, launch);
  const paged = useMemo(() => isPaged(questionnaire), [questionnaire]);
  // A resumed draft opens where its author got to (the last page it answers), not on page 1.
  const [page, setPage] = useState(() => (isPaged(questionnaire) ? resumePage(questionnaire, props.response) : 0));
  const [showErrors, setShowErrors] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const responseOf = (status: QuestionnaireResponse['status']) =>
    buildResponse(
      questionnaire,
      handle.state,
      {
        status,
        subject: props.subject,
        author: props.author,
        source: props.author as QuestionnaireResponse['source'],
        encounter: props.encounter,
        basedOn: props.basedOn,
        existing: props.response,
      },
      handle.expressionEnabled,
    );

  // Every change (after the expressions have settled) is offered as the in-progress response.
  const onChange = props.onChange;
  const lastOffered = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!onChange || !handle.ready) return;
    const key = JSON.stringify(handle.state);
    if (lastOffered.current === undefined) {
      // The state the form opened with is not a change.
      lastOffered.current = key;
      return;
    }
    if (key === lastOffered.current) return;
    lastOffered.current = key;
    onChange(responseOf('in-progress'));
  }, [handle.state, handle.ready, onChange]);

  const allPages = pages(questionnaire);
  const currentPagePath = paged && allPages[page] ? pagePath(allPages[page]) : undefined;
  const allErrors = itemErrors(handle.state, handle.enablement);
  const pageErrors = currentPagePath ? itemErrors(handle.state, handle.enablement, currentPagePath) : allErrors;
  // Answer problems (too long, out of range) show at once; missing answers after a Next or Submit.
  const shown = showErrors
    ? pageErrors
    : Object.fromEntries(
        Object.entries(pageErrors).filter(([, message]) => message !== 'Required' && !message.startsWith('At least')),
      );

  const focusFirstError = (errors: Record<string, string>) => {
    const first = Object.keys(errors)[0];
    if (!first) return;
    requestAnimationFrame(() => {
      const element =
        document.getElementById(fieldId(first)) ??
        document.querySelector<HTMLElement>(`[aria-labelledby="${fieldId(first)}-label"] input`);
      element?.focus();
    });
  };

  const advance = () => {
    if (Object.keys(pageErrors).length > 0 || formRef.current?.checkValidity() === false) {
      setShowErrors(true);
      focusFirstError(pageErrors);
      formRef.current?.reportValidity();
      return;
    }
    setShowErrors(false);
    const next = nextPage(questionnaire, handle.enablement.enabled, page, 1);
    if (next >= 0) setPage(next);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (paged && nextPage(questionnaire, handle.enablement.enabled, page, 1) >= 0) {
      advance();
      return;
    }
    if (Object.keys(allErrors).length > 0) {
      setShowErrors(true);
      // A resumed form can reach its last page with an earlier page unfinished: go to that page.
      const errorPage = paged ? pageOfPath(questionnaire, Object.keys(allErrors)[0]) : -1;
      if (errorPage >= 0 && errorPage !== page) setPage(errorPage);
      focusFirstError(allErrors);
      return;
    }
    await props.onSubmit(responseOf('completed'));
  };

  // The resumed page may be one the answers now leave disabled: show the nearest enabled one.
  const pageDisabled =
    paged && handle.ready && allPages[page] && handle.enablement.enabled.get(pagePath(allPages[page])) === false;
  useEffect(() => {
    if (!pageDisabled) return;
    const before = nextPage(questionnaire, handle.enablement.enabled, page, -1);
    setPage(before >= 0 ? before : Math.max(0, nextPage(questionnaire, handle.enablement.enabled, page, 1)));
  }, [pageDisabled, page, questionnaire, handle.enablement.enabled]);

  if (!handle.ready) return <CircularProgress aria-label="Loading..." />;

  const context: ItemsContext = {
    questionnaire,
    state: handle.state,
    setState: handle.setState,
    enablement: handle.enablement,
    errors: shown,
    disabled: props.disabled,
  };
  const previous = paged ? nextPage(questionnaire, handle.enablement.enabled, page, -1) : -1;
  const following = paged ? nextPage(questionnaire, handle.enablement.enabled, page, 1) : -1;
  const pageCount = allPages.filter((item) => handle.enablement.enabled.get(pagePath(item)) !== false).length;
  const pageNumber = allPages
    .slice(0, page + 1)
    .filter((item) => handle.enablement.enabled.get(pagePath(item)) !== false).length;

  return (
    <Box
      component="form"
      ref={formRef}
      onSubmit={submit}
      noValidate
      aria-label={questionnaire.title ?? 'Questionnaire'}
    >
      {props.showTitle !== false && questionnaire.title && (
        <Typography variant="h5" component="h2" sx={{ mb: 2 }}>
          {questionnaire.title}
        </Typography>
      )}
      {handle.expressionErrors.length > 0 && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          Some of this form’s calculations could not run: {handle.expressionErrors.map((e) => e.message).join('; ')}
        </Alert>
      )}
      {paged && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          Page {pageNumber} of {pageCount}
        </Typography>
      )}
      <QuestionnaireItems
        items={paged ? (allPages[page] ? [allPages[page]] : []) : (questionnaire.item ?? [])}
        parentPath=""
        context={context}
      />
      {showErrors && Object.keys(pageErrors).length > 0 && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {Object.keys(pageErrors).length === 1
            ? 'One answer needs attention.'
            : `${Object.keys(pageErrors).length} answers need attention.`}
        </Alert>
      )}
      <Stack direction="row" spacing={1} justifyContent="flex-end">
        {paged && previous >= 0 && (
          <Button onClick={() => setPage(previous)} disabled={props.disabled}>
            Back
          </Button>
        )}
        {paged && following >= 0 ? (
          <Button variant="contained" onClick={advance} disabled={props.disabled}>
            Next
          </Button>
        ) : (
          <Button type="submit" variant="contained" disabled={props.disabled}>
            {props.submitLabel ?? 'Submit'}
          </Button>
        )}
      </Stack>
    </Box>
  );
}
