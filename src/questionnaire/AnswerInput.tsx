import { useEffect, useState } from 'react';
import {
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  MenuItem,
  Radio,
  RadioGroup,
  TextField,
  Typography,
} from '@mui/material';
import type { Coding, QuestionnaireItem } from '@medplum/fhirtypes';
import { ReferenceInput } from '../datatypes/ReferenceInput';
import type { AnswerValue } from './formState';
import { EXT, itemControl, numberLimit } from './questionnaireExtensions';
import {
  fromLocalDateTimeInput,
  fromTimeInput,
  MAX_INLINE_ATTACHMENT_BYTES,
  parseNumber,
  toLocalDateTimeInput,
} from './answerInputs';

export interface AnswerInputProps {
  item: QuestionnaireItem;
  id: string;
  label: string;
  value: AnswerValue | undefined;
  onChange: (value: AnswerValue | undefined) => void;
  disabled?: boolean;
  required?: boolean;
  error?: string;
}

/** A number typed as text, so '1.' or '-' survive while typing; the answer changes only for numbers. */
function NumberInput(props: AnswerInputProps & { integer: boolean }) {
  const current = props.value?.valueInteger ?? props.value?.valueDecimal;
  const [text, setText] = useState(current === undefined ? '' : String(current));
  useEffect(() => {
    // A calculated or resumed value replaces what is shown, unless it is what the text already says.
    if (parseNumber(text) !== current) setText(current === undefined ? '' : String(current));
  }, [current]);
  return (
    <TextField
      id={props.id}
      label={props.label}
      type="number"
      size="small"
      value={text}
      required={props.required}
      disabled={props.disabled}
      error={!!props.error}
      helperText={props.error}
      slotProps={{
        htmlInput: {
          step: props.integer ? 1 : 'any',
          min: numberLimit(props.item, EXT.minValue),
          max: numberLimit(props.item, EXT.maxValue),
          readOnly: props.item.readOnly,
        },
      }}
      onChange={(event) => {
        setText(event.target.value);
        const value = parseNumber(event.target.value);
        props.onChange(
          value === undefined ? undefined : props.integer ? { valueInteger: value } : { valueDecimal: value },
        );
      }}
      sx={{ maxWidth: 240 }}
    />
  );
}

function unitOptions(item: QuestionnaireItem): Coding[] {
  return (item.extension ?? [])
    .filter((e) => e.url === EXT.unitOption && e.valueCoding)
    .map((e) => e.valueCoding as Coding);
}

function QuantityInput(props: AnswerInputProps) {
  const quantity = props.value?.valueQuantity;
  const units = unitOptions(props.item);
  const [text, setText] = useState(quantity?.value === undefined ? '' : String(quantity.value));
  const unit = quantity?.code ?? quantity?.unit ?? units[0]?.code ?? '';
  const emit = (valueText: string, unitCode: string) => {
    const value = parseNumber(valueText);
    const coding = units.find((u) => u.code === unitCode);
    props.onChange(
      value === undefined
        ? undefined
        : {
            valueQuantity: coding
              ? { value, unit: coding.display ?? coding.code, system: coding.system, code: coding.code }
              : { value, ...(unitCode ? { unit: unitCode } : {}) },
          },
    );
  };
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      <TextField
        id={props.id}
        label={props.label}
        type="number"
        size="small"
        value={text}
        required={props.required}
        disabled={props.disabled}
        error={!!props.error}
        helperText={props.error}
        slotProps={{ htmlInput: { step: 'any', readOnly: props.item.readOnly } }}
        onChange={(event) => {
          setText(event.target.value);
          emit(event.target.value, unit);
        }}
        sx={{ maxWidth: 200 }}
      />
      {units.length > 0 ? (
        <TextField
          select
          size="small"
          label={`${props.label} unit`}
          value={unit}
          disabled={props.disabled || props.item.readOnly}
          onChange={(event) => emit(text, event.target.value)}
          sx={{ minWidth: 100 }}
        >
          {units.map((u) => (
            <MenuItem key={u.code} value={u.code}>
              {u.display ?? u.code}
            </MenuItem>
          ))}
        </TextField>
      ) : (
        <TextField
          size="small"
          label={`${props.label} unit`}
          value={unit}
          disabled={props.disabled}
          slotProps={{ htmlInput: { readOnly: props.item.readOnly } }}
          onChange={(event) => emit(text, event.target.value)}
          sx={{ maxWidth: 140 }}
        />
      )}
    </Box>
  );
}

function BooleanInput(props: AnswerInputProps) {
  const value = props.value?.valueBoolean;
  if (itemControl(props.item) === 'check-box') {
    return (
      <FormControlLabel
        control={
          <Checkbox
            id={props.id}
            checked={value === true}
            disabled={props.disabled || props.item.readOnly}
            onChange={(event) => props.onChange({ valueBoolean: event.target.checked })}
          />
        }
        label={props.label}
      />
    );
  }
  // Yes / No: an unanswered question stays distinguishable from a "No". Required is said by the
  // group (a required Radio would put an asterisk on "Yes"; the question's label has the one).
  return (
    <RadioGroup
      row
      aria-labelledby={`${props.id}-label`}
      aria-required={props.required || undefined}
      value={value === undefined ? '' : String(value)}
      onChange={(event) => props.onChange({ valueBoolean: event.target.value === 'true' })}
    >
      <FormControlLabel value="true" control={<Radio />} label="Yes" disabled={props.disabled || props.item.readOnly} />
      <FormControlLabel value="false" control={<Radio />} label="No" disabled={props.disabled || props.item.readOnly} />
      {value !== undefined && !props.item.readOnly && !props.disabled && (
        <Button size="small" onClick={() => props.onChange(undefined)} aria-label={`Clear ${props.label}`}>
          Clear
        </Button>
      )}
    </RadioGroup>
  );
}

function AttachmentInput(props: AnswerInputProps) {
  const attachment = props.value?.valueAttachment;
  const [problem, setProblem] = useState<string | undefined>();
  return (
    <Box>
      <Button variant="outlined" component="label" disabled={props.disabled || props.item.readOnly}>
        {attachment ? 'Replace file' : 'Choose file'}
        <input
          id={props.id}
          type="file"
          hidden
          aria-label={props.label}
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (!file) return;
            if (file.size > MAX_INLINE_ATTACHMENT_BYTES) {
              setProblem(`The file is larger than ${MAX_INLINE_ATTACHMENT_BYTES / 1024 / 1024} MB`);
              return;
            }
            const reader = new FileReader();
            reader.onload = () => {
              const data = String(reader.result).split(',')[1] ?? '';
              setProblem(undefined);
              props.onChange({
                valueAttachment: {
                  contentType: file.type || 'application/octet-stream',
                  data,
                  title: file.name,
                  size: file.size,
                  creation: new Date().toISOString(),
                },
              });
            };
            reader.onerror = () => setProblem('The file could not be read');
            reader.readAsDataURL(file);
          }}
        />
      </Button>
      {attachment && (
        <Typography component="span" sx={{ ml: 1 }}>
          {attachment.title ?? 'Attached file'}
          {!props.disabled && (
            <Button size="small" onClick={() => props.onChange(undefined)} aria-label={`Remove ${props.label}`}>
              Remove
            </Button>
          )}
        </Typography>
      )}
      {(problem || props.error) && (
        <Typography color="error" variant="body2">
          {problem ?? props.error}
        </Typography>
      )}
    </Box>
  );
}

/** One answer of a question that is not a choice, as the input its type calls for. */
export function AnswerInput(props: AnswerInputProps) {
  const { item } = props;
  const common = {
    id: props.id,
    label: props.label,
    size: 'small' as const,
    required: props.required,
    disabled: props.disabled,
    error: !!props.error,
    helperText: props.error,
  };
  switch (item.type) {
    case 'boolean':
      return <BooleanInput {...props} />;
    case 'decimal':
      return <NumberInput {...props} integer={false} />;
    case 'integer':
      return <NumberInput {...props} integer />;
    case 'quantity':
      return <QuantityInput {...props} />;
    case 'attachment':
      return <AttachmentInput {...props} />;
    case 'reference': {
      const targets = (item.extension ?? [])
        .filter((e) => e.url === EXT.referenceResource && e.valueCode)
        .map((e) => `http://hl7.org/fhir/StructureDefinition/${e.valueCode}`);
      return (
        <ReferenceInput
          label={props.label}
          path={props.id}
          targetProfiles={targets}
          value={props.value?.valueReference}
          disabled={props.disabled || item.readOnly}
          required={props.required}
          error={props.error}
          onChange={(reference) => props.onChange(reference ? { valueReference: reference } : undefined)}
        />
      );
    }
    case 'date':
      return (
        <TextField
          {...common}
          type="date"
          value={props.value?.valueDate ?? ''}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { readOnly: item.readOnly } }}
          onChange={(event) => props.onChange(event.target.value ? { valueDate: event.target.value } : undefined)}
          sx={{ maxWidth: 240 }}
        />
      );
    case 'dateTime':
      return (
        <TextField
          {...common}
          type="datetime-local"
          value={toLocalDateTimeInput(props.value?.valueDateTime)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { readOnly: item.readOnly } }}
          onChange={(event) => {
            const value = fromLocalDateTimeInput(event.target.value);
            props.onChange(value ? { valueDateTime: value } : undefined);
          }}
          sx={{ maxWidth: 280 }}
        />
      );
    case 'time':
      return (
        <TextField
          {...common}
          type="time"
          value={props.value?.valueTime?.slice(0, 5) ?? ''}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { readOnly: item.readOnly } }}
          onChange={(event) => {
            const value = fromTimeInput(event.target.value);
            props.onChange(value ? { valueTime: value } : undefined);
          }}
          sx={{ maxWidth: 200 }}
        />
      );
    case 'url':
      return (
        <TextField
          {...common}
          type="url"
          fullWidth
          value={props.value?.valueUri ?? ''}
          slotProps={{ htmlInput: { maxLength: item.maxLength, readOnly: item.readOnly } }}
          onChange={(event) => props.onChange(event.target.value ? { valueUri: event.target.value } : undefined)}
        />
      );
    case 'text':
    case 'string':
    default:
      return (
        <TextField
          {...common}
          fullWidth
          multiline={item.type === 'text'}
          minRows={item.type === 'text' ? 3 : undefined}
          value={props.value?.valueString ?? ''}
          slotProps={{ htmlInput: { maxLength: item.maxLength, readOnly: item.readOnly } }}
          onChange={(event) => props.onChange(event.target.value ? { valueString: event.target.value } : undefined)}
        />
      );
  }
}
