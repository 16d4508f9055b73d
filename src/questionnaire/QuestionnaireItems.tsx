import { Box, Button, FormLabel, IconButton, Paper, Stack, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import type { Questionnaire, QuestionnaireItem } from '@medplum/fhirtypes';
import {
  addGroupOccurrence,
  childPath,
  groupInstancePaths,
  removeGroupOccurrence,
  setAnswers,
  type AnswerValue,
  type FormState,
} from './formState';
import type { Enablement } from './enablement';
import { AnswerInput } from './AnswerInput';
import { ChoiceInput, choiceHasOwnLabel } from './ChoiceInput';
import { EXT, expressionOf, isHidden } from './questionnaireExtensions';

export interface ItemsContext {
  questionnaire: Questionnaire;
  state: FormState;
  setState: (update: (state: FormState) => FormState) => void;
  enablement: Enablement;
  /** Problems to show, by path. */
  errors: Record<string, string>;
  disabled?: boolean;
}

export function fieldId(path: string): string {
  return `q-${path.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

function Question({ item, path, context }: { item: QuestionnaireItem; path: string; context: ItemsContext }) {
  const answers = context.state.answers[path] ?? [];
  const id = fieldId(path);
  const label = item.text ?? item.linkId;
  const calculated = !!expressionOf(item, EXT.calculatedExpression);
  const readOnly = item.readOnly || calculated;
  const effectiveItem = readOnly && !item.readOnly ? { ...item, readOnly: true } : item;
  const error = context.errors[path];
  const change = (next: AnswerValue[]) => context.setState((state) => setAnswers(state, path, next));
  const choice = item.type === 'choice' || item.type === 'open-choice';
  // Inputs that carry their own visible label; the others get the question text above them.
  const selfLabelled = choice
    ? choiceHasOwnLabel(item, context.questionnaire)
    : !item.repeats && !['boolean', 'attachment'].includes(item.type);

  let input;
  if (choice) {
    input = (
      <ChoiceInput
        questionnaire={context.questionnaire}
        item={effectiveItem}
        id={id}
        label={label}
        answers={answers}
        onChange={change}
        disabled={context.disabled}
        required={item.required}
        error={error}
      />
    );
  } else if (item.repeats) {
    // One empty row after the answers: typing into it adds an answer, and a new empty row appears.
    const rows: (AnswerValue | undefined)[] = readOnly ? answers : [...answers, undefined];
    input = (
      <Stack spacing={1}>
        {rows.map((answer, index) => (
          <Box key={index} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
            <Box sx={{ flex: 1 }}>
              <AnswerInput
                item={effectiveItem}
                id={`${id}-${index}`}
                label={`${label} ${index + 1}`}
                value={answer}
                disabled={context.disabled}
                required={item.required && index === 0}
                error={index === 0 ? error : undefined}
                onChange={(value) => {
                  const next = [...rows];
                  next[index] = value;
                  change(next.filter((a): a is AnswerValue => !!a));
                }}
              />
            </Box>
            {answer !== undefined && !readOnly && (
              <IconButton
                aria-label={`Remove ${label} ${index + 1}`}
                onClick={() => change(answers.filter((_, i) => i !== index))}
              >
                <DeleteIcon />
              </IconButton>
            )}
          </Box>
        ))}
      </Stack>
    );
  } else {
    input = (
      <AnswerInput
        item={effectiveItem}
        id={id}
        label={label}
        value={answers[0]}
        disabled={context.disabled}
        required={item.required}
        error={error}
        onChange={(value) => change(value ? [value] : [])}
      />
    );
  }

  return (
    <Box data-linkid={item.linkId} sx={{ mb: 2 }}>
      {!selfLabelled && (
        <FormLabel
          id={`${id}-label`}
          htmlFor={id}
          required={item.required}
          sx={{ display: 'block', mb: 0.5, color: 'text.primary' }}
        >
          {label}
        </FormLabel>
      )}
      {input}
      {error && !selfLabelled && !choice && item.type !== 'attachment' && (
        <Typography variant="body2" color="error" role="alert">
          {error}
        </Typography>
      )}
      {error && choice && !selfLabelled ? (
        <Typography variant="body2" color="error" role="alert">
          {error}
        </Typography>
      ) : null}
      {item.item?.length ? (
        <Box sx={{ pl: 2, mt: 1, borderLeft: 2, borderColor: 'divider' }}>
          <QuestionnaireItems items={item.item} parentPath={path} context={context} />
        </Box>
      ) : null}
    </Box>
  );
}

function Group({ item, parentPath, context }: { item: QuestionnaireItem; parentPath: string; context: ItemsContext }) {
  const paths = groupInstancePaths(context.state, parentPath, item).filter((path) =>
    context.enablement.enabled.get(path),
  );
  if (paths.length === 0) return null;
  const title = item.text ?? item.linkId;
  return (
    <Box component="section" aria-label={title} data-linkid={item.linkId} sx={{ mb: 2 }}>
      {paths.map((path, index) => (
        <Paper key={path} variant="outlined" sx={{ p: 2, mb: 1 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
            <Typography variant="h6" component="h3" sx={{ flex: 1, fontSize: '1.05rem' }}>
              {title}
              {item.repeats && paths.length > 1 ? ` ${index + 1}` : ''}
              {item.required && (
                <Box component="span" aria-hidden sx={{ color: 'error.main' }}>
                  {' *'}
                </Box>
              )}
            </Typography>
            {item.repeats && paths.length > 1 && !context.disabled && (
              <IconButton
                aria-label={`Remove ${title} ${index + 1}`}
                onClick={() => context.setState((state) => removeGroupOccurrence(state, parentPath, item, index))}
              >
                <DeleteIcon />
              </IconButton>
            )}
          </Box>
          {context.errors[path] && (
            <Typography variant="body2" color="error" role="alert" sx={{ mb: 1 }}>
              {context.errors[path]}
            </Typography>
          )}
          <QuestionnaireItems items={item.item ?? []} parentPath={path} context={context} />
        </Paper>
      ))}
      {item.repeats && !context.disabled && (
        <Button
          startIcon={<AddIcon />}
          onClick={() => context.setState((state) => addGroupOccurrence(state, parentPath, item))}
        >
          Add {title}
        </Button>
      )}
    </Box>
  );
}

/** The items under one parent occurrence, each as a group, a display text or a question; disabled and hidden ones are not shown. */
export function QuestionnaireItems({
  items,
  parentPath,
  context,
}: {
  items: QuestionnaireItem[];
  parentPath: string;
  context: ItemsContext;
}) {
  return (
    <>
      {items.map((item) => {
        if (isHidden(item)) return null;
        if (item.type === 'group')
          return <Group key={item.linkId} item={item} parentPath={parentPath} context={context} />;
        const path = childPath(parentPath, item.linkId);
        if (!context.enablement.enabled.get(path)) return null;
        if (item.type === 'display') {
          return (
            <Typography key={item.linkId} sx={{ mb: 2 }} data-linkid={item.linkId}>
              {item.text}
            </Typography>
          );
        }
        return <Question key={item.linkId} item={item} path={path} context={context} />;
      })}
    </>
  );
}
