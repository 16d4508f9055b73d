import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Questionnaire, QuestionnaireResponse } from '@medplum/fhirtypes';
import type { FormState } from './formState';
import { formStateFromResponse, initialFormState } from './initialState';
import { computeEnablement, type Enablement } from './enablement';
import { hasExpressions, settleExpressions, type ExpressionResults, type LaunchContext } from './expressionEvaluation';

export interface QuestionnaireStateHandle {
  state: FormState;
  setState: (update: (state: FormState) => FormState) => void;
  enablement: Enablement;
  expressionEnabled: Record<string, boolean>;
  /** False until the first evaluation of the questionnaire's expressions (true at once without any). */
  ready: boolean;
  expressionErrors: ExpressionResults['errors'];
}

/**
 * The form state of a questionnaire being filled, with its expressions kept current: after each
 * change the FHIRPath expressions are evaluated (the engine loads on first use) and calculated
 * answers are written into the state; a result that arrives for an older state is dropped.
 */
export function useQuestionnaireState(
  questionnaire: Questionnaire,
  resumed: QuestionnaireResponse | undefined,
  launch: LaunchContext,
): QuestionnaireStateHandle {
  const [state, setStateRaw] = useState<FormState>(() =>
    resumed ? formStateFromResponse(questionnaire, resumed) : initialFormState(questionnaire),
  );
  const withExpressions = useMemo(() => hasExpressions(questionnaire), [questionnaire]);
  const [results, setResults] = useState<ExpressionResults | undefined>();
  const latest = useRef(state);
  const firstRun = useRef(true);
  latest.current = state;

  const setState = useCallback((update: (state: FormState) => FormState) => setStateRaw(update), []);

  useEffect(() => {
    if (!withExpressions) return;
    let cancelled = false;
    const applyInitialValues = firstRun.current && !resumed;
    firstRun.current = false;
    settleExpressions(questionnaire, state, launch, { applyInitialValues, previous: results?.enabled }).then(
      (settled) => {
        if (cancelled || latest.current !== state) return;
        setResults(settled.results);
        if (settled.state !== state) setStateRaw(settled.state);
      },
      (error: unknown) => {
        if (cancelled) return;
        setResults({
          enabled: {},
          calculated: {},
          initial: {},
          errors: [{ path: '', expression: '', message: error instanceof Error ? error.message : String(error) }],
        });
      },
    );
    return () => {
      cancelled = true;
    };
    // results is read for its previous enableWhen answers only; re-running on it would loop.
  }, [questionnaire, state, launch, withExpressions, resumed]);

  const expressionEnabled = results?.enabled ?? {};
  const enablement = useMemo(
    () => computeEnablement(questionnaire, state, expressionEnabled),
    [questionnaire, state, expressionEnabled],
  );
  return {
    state,
    setState,
    enablement,
    expressionEnabled,
    ready: !withExpressions || results !== undefined,
    expressionErrors: results?.errors ?? [],
  };
}
