import { useState } from 'react';
import {
  Autocomplete,
  Box,
  Checkbox,
  FormControlLabel,
  FormGroup,
  MenuItem,
  Radio,
  RadioGroup,
  TextField,
} from '@mui/material';
import type { Questionnaire, QuestionnaireItem } from '@medplum/fhirtypes';
import { useValueSetOptions } from '../datatypes/useValueSetOptions';
import type { AnswerValue } from './formState';
import { answerComparisonKey, answerLabel, localOptions, remoteValueSet } from './answerOptions';
import { itemControl } from './questionnaireExtensions';

export interface ChoiceInputProps {
  questionnaire: Questionnaire;
  item: QuestionnaireItem;
  id: string;
  label: string;
  answers: AnswerValue[];
  onChange: (answers: AnswerValue[]) => void;
  disabled?: boolean;
  required?: boolean;
  error?: string;
}

/** Options shown as radio buttons or check boxes up to this many; a drop-down beyond. */
const INLINE_OPTIONS = 8;

/** The free-text part of an open-choice: answers that are not among the options. */
function OtherText(props: ChoiceInputProps & { options: AnswerValue[] }) {
  const keys = new Set(props.options.map(answerComparisonKey));
  const other = props.answers.find(
    (answer) => answer.valueString !== undefined && !keys.has(answerComparisonKey(answer)),
  );
  const chosen = props.answers.filter((answer) => answer !== other);
  return (
    <TextField
      size="small"
      label={`${props.label}: other`}
      value={other?.valueString ?? ''}
      disabled={props.disabled || props.item.readOnly}
      slotProps={{ htmlInput: { maxLength: props.item.maxLength } }}
      onChange={(event) => {
        const text = event.target.value;
        const base = props.item.repeats ? chosen : [];
        props.onChange(text ? [...base, { valueString: text }] : base);
      }}
      sx={{ mt: 1, maxWidth: 400 }}
      fullWidth
    />
  );
}

/** Options from the server's `$expand` of the item's answerValueSet, searched as the user types. */
function ValueSetChoice(props: ChoiceInputProps & { valueSet: string }) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const expansion = useValueSetOptions(props.valueSet, text, open || props.answers.length > 0);
  const options: AnswerValue[] = (expansion.data ?? []).map((coding) => ({ valueCoding: coding }));
  const openChoice = props.item.type === 'open-choice';
  const common = {
    id: props.id,
    open,
    onOpen: () => setOpen(true),
    onClose: () => setOpen(false),
    options,
    loading: expansion.isFetching,
    disabled: props.disabled || props.item.readOnly,
    filterOptions: (x: AnswerValue[]) => x,
    noOptionsText: expansion.error ? expansion.error.message : 'Nothing found',
    getOptionLabel: (option: AnswerValue | string) => (typeof option === 'string' ? option : answerLabel(option)),
    isOptionEqualToValue: (a: AnswerValue, b: AnswerValue) => answerComparisonKey(a) === answerComparisonKey(b),
    onInputChange: (_event: unknown, value: string, reason: string) => reason === 'input' && setText(value),
    ListboxProps: { style: { maxHeight: 320 } },
    renderInput: (params: object) => (
      <TextField
        {...params}
        size="small"
        label={props.label}
        required={props.required && props.answers.length === 0}
        error={!!props.error}
        helperText={props.error}
      />
    ),
  };
  const toAnswer = (value: AnswerValue | string): AnswerValue =>
    typeof value === 'string' ? { valueString: value } : value;
  if (props.item.repeats) {
    return (
      <Autocomplete<AnswerValue, true, false, boolean>
        {...common}
        multiple
        freeSolo={openChoice}
        value={props.answers}
        onChange={(_event, values) => props.onChange(values.map(toAnswer))}
      />
    );
  }
  return (
    <Autocomplete<AnswerValue, false, false, boolean>
      {...common}
      freeSolo={openChoice}
      value={props.answers[0] ?? null}
      onChange={(_event, value) => props.onChange(value ? [toAnswer(value)] : [])}
    />
  );
}

/** True when the choice renders as one labelled text field (searched ValueSet, drop-down, "No Answers Defined"). */
export function choiceHasOwnLabel(item: QuestionnaireItem, questionnaire: Questionnaire): boolean {
  const options = localOptions(item, questionnaire.contained ?? []);
  if (!options) return !!remoteValueSet(item) || item.type === 'choice';
  if (options.length === 0) return item.type === 'choice';
  const control = itemControl(item);
  return !item.repeats && (control === 'drop-down' || (control !== 'radio-button' && options.length > INLINE_OPTIONS));
}

/** A choice or open-choice question: radio buttons, check boxes, a drop-down, or a searched ValueSet. */
export function ChoiceInput(props: ChoiceInputProps) {
  const { item } = props;
  const options = localOptions(item, props.questionnaire.contained ?? []);
  const valueSet = remoteValueSet(item);
  if (!options && valueSet) return <ValueSetChoice {...props} valueSet={valueSet} />;
  if (!options || options.length === 0) {
    if (item.type === 'open-choice') {
      return <OtherText {...props} label={props.label} options={[]} />;
    }
    return (
      <TextField
        id={props.id}
        size="small"
        label={props.label}
        value="No Answers Defined"
        disabled
        sx={{ maxWidth: 400 }}
      />
    );
  }
  const selected = new Set(props.answers.map(answerComparisonKey));
  const disabled = props.disabled || item.readOnly;
  const control = itemControl(item);
  const other = item.type === 'open-choice' && <OtherText {...props} options={options} />;

  if (item.repeats) {
    // A group has no aria-required (ARIA 1.2), so a required check-box group says it in its name.
    const requiredId = `${props.id}-required`;
    return (
      <Box>
        {/* Hidden, yet named by aria-labelledby: part of the group's name, not read as text of its own. */}
        {props.required && (
          <span id={requiredId} hidden>
            required
          </span>
        )}
        <FormGroup
          role="group"
          aria-labelledby={props.required ? `${props.id}-label ${requiredId}` : `${props.id}-label`}
          row={options.length > 4}
        >
          {options.map((option) => {
            const key = answerComparisonKey(option);
            return (
              <FormControlLabel
                key={key}
                label={answerLabel(option)}
                disabled={disabled}
                control={
                  <Checkbox
                    checked={selected.has(key)}
                    onChange={(event) =>
                      props.onChange(
                        event.target.checked
                          ? [...props.answers, option]
                          : props.answers.filter((answer) => answerComparisonKey(answer) !== key),
                      )
                    }
                  />
                }
              />
            );
          })}
        </FormGroup>
        {other}
      </Box>
    );
  }

  const current = props.answers.find(
    (answer) =>
      selected.has(answerComparisonKey(answer)) &&
      options.some((o) => answerComparisonKey(o) === answerComparisonKey(answer)),
  );
  const currentKey = current ? answerComparisonKey(current) : '';
  const pick = (key: string) => {
    const option = options.find((o) => answerComparisonKey(o) === key);
    props.onChange(option ? [option] : []);
  };
  if (control === 'drop-down' || (control !== 'radio-button' && options.length > INLINE_OPTIONS)) {
    return (
      <Box>
        <TextField
          select
          id={props.id}
          size="small"
          label={props.label}
          value={currentKey}
          required={props.required}
          disabled={disabled}
          error={!!props.error}
          helperText={props.error}
          onChange={(event) => pick(event.target.value)}
          sx={{ minWidth: 240 }}
        >
          <MenuItem value="">
            <em>None</em>
          </MenuItem>
          {options.map((option) => (
            <MenuItem key={answerComparisonKey(option)} value={answerComparisonKey(option)}>
              {answerLabel(option)}
            </MenuItem>
          ))}
        </TextField>
        {other}
      </Box>
    );
  }
  return (
    <Box>
      {/* Required on the group, not on each Radio: MUI marks every option's label with an asterisk
          for a required control, and the question's label already carries the one asterisk. */}
      <RadioGroup
        aria-labelledby={`${props.id}-label`}
        aria-required={props.required || undefined}
        value={currentKey}
        onChange={(event) => pick(event.target.value)}
      >
        {options.map((option) => (
          <FormControlLabel
            key={answerComparisonKey(option)}
            value={answerComparisonKey(option)}
            label={answerLabel(option)}
            disabled={disabled}
            control={<Radio />}
          />
        ))}
      </RadioGroup>
      {other}
    </Box>
  );
}
