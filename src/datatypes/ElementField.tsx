import { useState, type ComponentProps } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Box, Button, CircularProgress, IconButton, MenuItem, TextField, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import { choiceKey } from '../../schema-engine';
import { stripIndexes } from '../resources/outcomeErrors';
import { childElements, schemaLoaderFor, type ElementSchema, type TypeSchema } from '../resources/typeSchema';
import { useFhirClient } from '../resources/useFhirClient';
import { isKnownResourceType } from '../../data-provider/rules';
import { fieldLabel } from '../search/searchColumns';
import { AddressInput } from './AddressInput';
import { AnnotationInput } from './AnnotationInput';
import { AttachmentInput } from './AttachmentInput';
import { CodeableConceptInput } from './CodeableConceptInput';
import { CodeInput } from './CodeInput';
import { CodeListInput } from './CodeListInput';
import { CodingInput } from './CodingInput';
import { CollapsedArrayField } from './CollapsedArrayField';
import { ComplexTypeInput } from './ComplexTypeInput';
import { ContactPointInput } from './ContactPointInput';
import { DosageInput } from './DosageInput';
import { ExtensionInput } from './ExtensionInput';
import { FieldGroup } from './FieldGroup';
import { useResourceFormContext } from './formContext';
import { HumanNameInput } from './HumanNameInput';
import { IdentifierInput } from './IdentifierInput';
import { inputId, withField } from './inputProps';
import { JsonValueInput } from './JsonValueInput';
import { opensCollapsed } from './largeArray';
import { MetaInput } from './MetaInput';
import { MoneyInput } from './MoneyInput';
import { PeriodInput } from './PeriodInput';
import { PrimitiveInput } from './PrimitiveInput';
import { QuantityInput } from './QuantityInput';
import { RangeInput } from './RangeInput';
import { RatioInput } from './RatioInput';
import { ReferenceInput } from './ReferenceInput';
import { SlicedElementField } from './SlicedElementField';
import { TimingInput } from './TimingInput';

const QUANTITY_TYPES = new Set(['Quantity', 'Age', 'Count', 'Distance', 'Duration', 'SimpleQuantity', 'MoneyQuantity']);

interface SingleProps {
  type: string;
  element: ElementSchema;
  schema: TypeSchema;
  path: string;
  label: string;
  value: unknown;
  onChange: (value: unknown) => void;
  disabled?: boolean;
  required?: boolean;
  error?: string;
}

/** One value of one type: dispatches to the datatype's input. */
function SingleInput(props: SingleProps) {
  const { type, element } = props;
  const common = {
    label: props.label,
    path: props.path,
    disabled: props.disabled,
    required: props.required,
    error: props.error,
    onChange: props.onChange,
  };
  const v = props.value as never;
  if (type === 'code' && element.binding?.valueSet)
    return <CodeInput {...common} value={v} valueSet={element.binding.valueSet} />;
  if (/^[a-z]/.test(type)) return <PrimitiveInput {...common} type={type} value={v} />;
  if (QUANTITY_TYPES.has(type)) return <QuantityInput {...common} value={v} noComparator={type === 'SimpleQuantity'} />;
  switch (type) {
    case 'HumanName':
      return <HumanNameInput {...common} value={v} />;
    case 'Address':
      return <AddressInput {...common} value={v} />;
    case 'ContactPoint':
      return <ContactPointInput {...common} value={v} />;
    case 'Identifier':
      return <IdentifierInput {...common} value={v} />;
    case 'Money':
      return <MoneyInput {...common} value={v} />;
    case 'Period':
      return <PeriodInput {...common} value={v} />;
    case 'Range':
      return <RangeInput {...common} value={v} />;
    case 'Ratio':
      return <RatioInput {...common} value={v} />;
    case 'Timing':
      return <TimingInput {...common} value={v} />;
    case 'Annotation':
      return <AnnotationInput {...common} value={v} />;
    case 'Attachment':
      return <AttachmentInput {...common} value={v} />;
    case 'Reference':
      return <ProfiledReferenceInput {...common} value={v} targetProfiles={element.targetProfiles} />;
    case 'CodeableConcept':
      return <CodeableConceptInput {...common} value={v} valueSet={element.binding?.valueSet} />;
    case 'Coding':
      return <CodingInput {...common} value={v} valueSet={element.binding?.valueSet} />;
    case 'Extension':
      return <ExtensionInput {...common} value={v} />;
    case 'Meta':
      return <MetaInput {...common} value={v} />;
    case 'Dosage':
      return <DosageInput {...common} value={v} />;
    case 'Resource':
    case 'Narrative':
      return <JsonValueInput {...common} value={props.value} />;
    case 'BackboneElement':
    case 'Element':
      return <BackboneInput {...props} />;
    default:
      return <ComplexTypeInput {...common} value={v} type={type} />;
  }
}

const BASE_DEFINITION = 'http://hl7.org/fhir/StructureDefinition/';

/**
 * A Reference whose targets are profiles (US Core's subject → us-core-patient): the picker searches
 * the profiles' base types, read from their definitions (a profile's url does not name its type).
 */
function ProfiledReferenceInput(props: ComponentProps<typeof ReferenceInput>) {
  const client = useFhirClient();
  const profiled = props.targetProfiles.filter((url) => {
    const last = url.split('/').pop() ?? '';
    return last !== 'Resource' && !isKnownResourceType(last);
  });
  const types = useQuery({
    queryKey: ['hearth-target-types', ...profiled],
    queryFn: () =>
      Promise.all(
        profiled.map((url) =>
          schemaLoaderFor(client)
            .loadProfile(url)
            .then((schema) => schema.type),
        ),
      ),
    enabled: profiled.length > 0,
    staleTime: Infinity,
    retry: false,
  });
  if (profiled.length === 0) return <ReferenceInput {...props} />;
  if (types.error) return <ReferenceInput {...props} targetProfiles={[]} />;
  if (!types.data) return <CircularProgress size={20} aria-label="Loading..." />;
  const targets = props.targetProfiles.map((url) => {
    const at = profiled.indexOf(url);
    return at < 0 ? url : BASE_DEFINITION + types.data[at];
  });
  return <ReferenceInput {...props} targetProfiles={targets} />;
}

/** A backbone element: the nested elements of the owning definition, recursively. */
function BackboneInput(props: SingleProps) {
  const schemaPath = props.element.contentReference ?? props.element.path;
  const value = (props.value ?? {}) as Record<string, unknown>;
  return (
    <FieldGroup label={props.label} required={props.required} error={props.error}>
      {childElements(props.schema, schemaPath)
        .filter((child) => child.name !== 'id')
        .map((child) => (
          <ElementField
            key={child.path}
            element={child}
            schema={props.schema}
            path={`${props.path}.${child.name}`}
            parent={value}
            disabled={props.disabled}
            onParentChange={(next) => props.onChange(Object.keys(next).length ? next : undefined)}
          />
        ))}
    </FieldGroup>
  );
}

export interface ElementFieldProps {
  element: ElementSchema;
  /** The definition the element belongs to (for backbone children). */
  schema: TypeSchema;
  /** FHIRPath-style path of this element, e.g. `Patient.contact.name`. */
  path: string;
  parent: Record<string, unknown>;
  onParentChange: (next: Record<string, unknown>) => void;
  disabled?: boolean;
  /** Top-level elements follow the access policy's hidden and read-only fields. */
  topLevel?: boolean;
  /** Shown instead of the element's name in words. */
  label?: string;
  /** A profile's slice fixes this value: shown read-only with a note. */
  fixed?: boolean;
  /** Show a sliced element as the plain array (the values that match no slice). */
  unsliced?: boolean;
}

/** One element of a form: required marker, arrays (add to max, remove above min), choice types, policy. */
export function ElementField(props: ElementFieldProps) {
  const { element } = props;
  const context = useResourceFormContext();
  // Decided when the field mounts (see opensCollapsed): a long array of structured entries is listed collapsed.
  const [collapsed] = useState(() => {
    const initial = props.parent[element.name];
    return element.isArray && Array.isArray(initial) && opensCollapsed(initial);
  });
  if (props.topLevel && context.hiddenFields.includes(element.name)) return null;
  // Read-only: by the access policy (top-level fields) or because the server sets the element.
  const policyReadonly = !!((props.topLevel && context.readonlyFields.includes(element.name)) || element.readOnly);
  const disabled = !!(props.disabled || context.disabled || policyReadonly);
  const label = props.label ?? fieldLabel(element.name);
  // Issues are keyed without array indexes; slice entries' paths carry theirs (unique input ids).
  const error = context.errors.get(stripIndexes(props.path));
  const readOnlyMark = policyReadonly ? (
    <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
      {label}: Read Only
    </Typography>
  ) : props.fixed ? (
    <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
      {label}: fixed by the profile
    </Typography>
  ) : null;
  if (element.isArray && element.slicing?.slices.length && !props.unsliced) {
    return (
      <Box sx={{ flexBasis: '100%' }}>
        {readOnlyMark}
        <SlicedElementField {...props} label={label} disabled={disabled} error={error} />
      </Box>
    );
  }
  if (element.isChoice) {
    return (
      <Box sx={{ flexBasis: '100%' }}>
        {readOnlyMark}
        <ChoiceField {...props} label={label} disabled={disabled} error={error} />
      </Box>
    );
  }
  const type = element.contentReference ? 'BackboneElement' : (element.types[0] ?? 'string');
  const setValue = (value: unknown) => props.onParentChange(withField(props.parent, element.name, value) ?? {});
  // Arrays keep empty placeholder items (just added, or cleared while typing); the form drops them on save.
  const setItems = (items: unknown[]) => {
    const next = { ...props.parent };
    if (items.length) next[element.name] = items;
    else delete next[element.name];
    props.onParentChange(next);
  };
  const value = props.parent[element.name];
  const single = (
    itemValue: unknown,
    onChange: (v: unknown) => void,
    itemLabel: string,
    itemPath: string,
    required: boolean,
  ) => (
    <SingleInput
      type={type}
      element={element}
      schema={props.schema}
      path={itemPath}
      label={itemLabel}
      value={itemValue}
      onChange={onChange}
      disabled={disabled}
      required={required}
      error={error}
    />
  );
  if (!element.isArray) {
    // A fixed value's note goes under its input, so inputs side by side stay aligned.
    return (
      <Box sx={{ flexBasis: '100%' }}>
        {policyReadonly && readOnlyMark}
        {single(value, setValue, label, props.path, element.min > 0)}
        {!policyReadonly && readOnlyMark}
      </Box>
    );
  }
  const items = Array.isArray(value) ? (value as unknown[]) : [];
  const binding = element.binding;
  // Bound codes are one multi-select holding at most max values (app-spec §5). Items that are not
  // plain strings (none in valid data) and empty read-only lists keep the general array below.
  if (type === 'code' && binding?.valueSet && items.every((item) => typeof item === 'string')) {
    if (!(disabled && items.length === 0)) {
      return (
        <Box sx={{ flexBasis: '100%' }}>
          {policyReadonly && readOnlyMark}
          <CodeListInput
            label={label}
            path={props.path}
            valueSet={binding.valueSet}
            strict={binding.strength === 'required'}
            value={items as string[]}
            max={element.max}
            required={element.min > 0}
            disabled={disabled}
            error={error}
            onChange={(codes) => setItems(codes)}
          />
          {!policyReadonly && readOnlyMark}
        </Box>
      );
    }
  }
  const newItem = () => (/^[a-z]/.test(type) ? '' : {});
  if (collapsed) {
    return (
      <CollapsedArrayField
        label={label}
        type={type}
        items={items}
        min={element.min}
        max={element.max}
        disabled={disabled}
        note={policyReadonly ? ' (Read Only)' : props.fixed ? ' (fixed by the profile)' : ''}
        newItem={newItem}
        onItemsChange={setItems}
        renderItem={(item, index, onChange) =>
          single(item, onChange, `${label} ${index + 1}`, `${props.path}[${index}]`, index < element.min)
        }
      />
    );
  }
  return (
    <Box sx={{ flexBasis: '100%' }} role="group" aria-label={label}>
      <Typography variant="subtitle2" component="div" sx={{ mb: 0.5 }}>
        {label}
        {element.min > 0 ? ' *' : ''}
        {policyReadonly ? ' (Read Only)' : props.fixed ? ' (fixed by the profile)' : ''}
      </Typography>
      {disabled && items.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          (empty)
        </Typography>
      )}
      {items.map((item, index) => (
        <Box key={index} sx={{ display: 'flex', alignItems: 'flex-start', gap: 1, mb: 1 }}>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            {single(
              item,
              (next) => {
                const copy = [...items];
                // An emptied item stays as a placeholder until removed, so positions do not shift while typing.
                copy[index] = next === undefined ? (typeof item === 'object' ? {} : '') : next;
                setItems(copy);
              },
              `${label} ${index + 1}`,
              // Each entry's inputs carry its index (unique ids); issues are matched without indexes.
              `${props.path}[${index}]`,
              // The element's minimum counts entries: min 1 makes the first entry required, not each one.
              index < element.min,
            )}
          </Box>
          {!disabled && items.length > element.min && (
            <IconButton
              aria-label={`Remove ${label} ${index + 1}`}
              onClick={() => setItems(items.filter((_, i) => i !== index))}
            >
              <DeleteIcon />
            </IconButton>
          )}
        </Box>
      ))}
      {!disabled && items.length < element.max && (
        <Button
          size="small"
          startIcon={<AddIcon />}
          onClick={() => setItems([...items, newItem()])}
          aria-label={`Add ${label}`}
        >
          Add {label}
        </Button>
      )}
    </Box>
  );
}

/** `Observation.value` → `Observation.valueQuantity`: the path of a choice's value under its chosen key. */
export function choicePath(path: string, name: string, key: string): string {
  return path + key.slice(name.length);
}

/** A choice element (`value[x]`): a type switch and the chosen type's input. */
function ChoiceField(props: ElementFieldProps & { label: string; disabled: boolean; error?: string }) {
  const { element } = props;
  const context = useResourceFormContext();
  const present = element.types.find((type) => props.parent[choiceKey(element.name, type)] !== undefined);
  const [chosen, setChosen] = useState(present ?? element.types[0]);
  const type = present ?? chosen;
  const key = choiceKey(element.name, type);
  const valuePath = choicePath(props.path, element.name, key);
  const error = props.error ?? context.errors.get(stripIndexes(valuePath));
  const setValue = (value: unknown) => {
    const next = { ...props.parent };
    for (const other of element.types) delete next[choiceKey(element.name, other)];
    props.onParentChange(withField(next, key, value) ?? {});
  };
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
      {element.types.length > 1 && (
        <TextField
          select
          size="small"
          id={inputId(`${props.path}-type`)}
          label={`${props.label} type`}
          value={type}
          disabled={props.disabled}
          sx={{ minWidth: 170 }}
          onChange={(event) => {
            const nextType = event.target.value;
            setChosen(nextType);
            // Switching type drops the value of the previous type.
            if (present && present !== nextType) setValue(undefined);
          }}
        >
          {element.types.map((option) => (
            <MenuItem key={option} value={option}>
              {option}
            </MenuItem>
          ))}
        </TextField>
      )}
      <Box sx={{ flex: '1 1 260px', minWidth: 0 }}>
        <SingleInput
          type={type}
          element={element}
          schema={props.schema}
          // The chosen type's inputs are named by its key (`Consent.sourceReference`): their ids differ
          // from the type switch's, and issues on the value (`Observation.valueQuantity.value`) find them.
          path={valuePath}
          label={props.label}
          value={props.parent[key]}
          onChange={setValue}
          disabled={props.disabled}
          required={element.min > 0}
          error={error}
        />
      </Box>
    </Box>
  );
}
