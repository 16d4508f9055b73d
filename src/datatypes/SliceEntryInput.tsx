import { Box, CircularProgress, FormHelperText } from '@mui/material';
import {
  choiceKey,
  isPrimitiveType,
  nestedSliceConstraints,
  sliceEntryChildren,
  type SliceModel,
} from '../../schema-engine';
import { useTypeSchema } from '../resources/schemaHooks';
import { childElements, type ElementSchema, type TypeSchema } from '../resources/typeSchema';
import { ElementField } from './ElementField';
import { fieldLabel } from '../search/searchColumns';
import { FieldGroup } from './FieldGroup';
import { withField } from './inputProps';
import { PrimitiveInput } from './PrimitiveInput';

export interface SliceEntryInputProps {
  /** The sliced element (e.g. Observation.component) and the slice this entry belongs to. */
  element: ElementSchema;
  slice: SliceModel;
  schema: TypeSchema;
  /** Path of this entry with its array index (`Observation.component[1]`): input ids stay unique. */
  path: string;
  label: string;
  /** Several entries of the slice: each in its own labelled box. */
  grouped: boolean;
  /** The inputs side by side (the parts of a datatype) instead of one per row. */
  wrap?: boolean;
  value: unknown;
  disabled: boolean;
  onChange: (value: unknown) => void;
}

/**
 * One entry of a slice: the children of its type (backbone children inline; a datatype's or an
 * extension profile's elements once loaded) as the slice constrains them, with the slice's fixed and
 * discriminating values read-only so the entry keeps matching its slice.
 */
export function SliceEntryInput(props: SliceEntryInputProps) {
  const { element, slice } = props;
  const sliceType = slice.types[0];
  const type = sliceType?.code ?? element.types[0] ?? 'BackboneElement';
  const inline = element.children.length > 0 || !!element.contentReference;
  const loaded = useTypeSchema(inline || isPrimitiveType(type) ? undefined : type, sliceType?.profiles[0]);
  if (isPrimitiveType(type)) {
    return (
      <PrimitiveInput
        type={type}
        label={props.label}
        path={props.path}
        value={props.value as never}
        disabled={props.disabled || slice.fixed !== undefined || slice.pattern !== undefined}
        onChange={props.onChange}
      />
    );
  }
  if (!inline && loaded.error) return <FormHelperText error>{loaded.error.message}</FormHelperText>;
  if (!inline && !loaded.data) return <CircularProgress size={20} aria-label="Loading..." />;
  const schema = inline ? props.schema : (loaded.data as TypeSchema);
  const children = inline
    ? element.contentReference
      ? childElements(props.schema, element.contentReference)
      : element.children
    : schema.topLevel;
  const slicing = element.slicing;
  if (!slicing) return null;
  const value = (props.value ?? {}) as Record<string, unknown>;
  const fields = sliceEntryChildren(children, slice, slicing).map(({ element: child, fixed }) => {
    const nested = fixed ? undefined : nestedSliceConstraints(slice, child);
    if (nested) {
      // The slice fixes parts of this child (a Quantity's system and code): its parts one by one.
      const key = child.isChoice ? choiceKey(child.name, child.types[0]) : child.name;
      return (
        <FieldGroup key={child.path} label={fieldLabel(child.name)} required={child.min > 0}>
          <SliceEntryInput
            element={{ ...child, slicing: { discriminators: [], rules: 'open', ordered: false, slices: [nested] } }}
            slice={nested}
            schema={schema}
            path={`${props.path}.${child.name}`}
            label={fieldLabel(child.name)}
            grouped={false}
            wrap
            value={value[key]}
            disabled={props.disabled}
            onChange={(next) => props.onChange(withField(value, key, next))}
          />
        </FieldGroup>
      );
    }
    return (
      <ElementField
        key={child.path}
        element={child}
        schema={schema}
        path={`${props.path}.${child.name}`}
        parent={value}
        disabled={props.disabled || fixed}
        fixed={fixed}
        onParentChange={(next) => props.onChange(Object.keys(next).length ? next : undefined)}
      />
    );
  });
  // One input per row: datatype groups (Quantity, CodeableConcept) lay out their parts across the width.
  const rows = props.wrap ? (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, width: '100%', '& > *': { flex: '1 1 160px' } }}>
      {fields}
    </Box>
  ) : (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, width: '100%' }}>{fields}</Box>
  );
  return props.grouped ? <FieldGroup label={props.label}>{rows}</FieldGroup> : rows;
}
