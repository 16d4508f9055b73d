import { Box, Button, FormHelperText, IconButton, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import {
  acceptsOtherValues,
  canAddToSlice,
  canRemoveFromSlice,
  groupBySlice,
  profiledSliceInitialValue,
  replaceOtherValues,
  sliceInsertionIndex,
  type SliceModel,
} from '../../schema-engine';
import { stripIndexes } from '../resources/outcomeErrors';
import { useTypeSchema } from '../resources/schemaHooks';
import type { ElementSchema, TypeSchema } from '../resources/typeSchema';
import { fieldLabel } from '../search/searchColumns';
import { ElementField } from './ElementField';
import { useResourceFormContext } from './formContext';
import { SliceEntryInput } from './SliceEntryInput';

export interface SlicedElementFieldProps {
  element: ElementSchema;
  schema: TypeSchema;
  /** FHIRPath-style path of the element (`Observation.component`); a slice's issues are `{path}:{slice}`. */
  path: string;
  parent: Record<string, unknown>;
  onParentChange: (next: Record<string, unknown>) => void;
  label: string;
  disabled: boolean;
  error?: string;
}

/** The label of a slice: its name in words (`systolic` → Systolic, `genderIdentity` → Gender Identity). */
export function sliceLabel(slice: SliceModel): string {
  return fieldLabel(slice.name);
}

/** The profile's short text for the slice when it says more than the slice's name. */
export function sliceDescription(slice: SliceModel): string | undefined {
  const short = slice.short?.trim();
  if (!short) return undefined;
  const words = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
  return words(short) === words(sliceLabel(slice)) ? undefined : short;
}

/**
 * A sliced array element (e.g. Observation.component under US Core blood pressure, Patient.extension
 * under US Core Patient): each slice as its own labelled group (required from the slice's min, add up
 * to its max, remove only above its min, fixed values read-only), then the values that match no slice
 * as the ordinary array — none when the slicing is closed. Values are assigned with the engine's
 * `sliceOf` and edited in place in the element's array, so order and unshown data are kept.
 */
export function SlicedElementField(props: SlicedElementFieldProps) {
  const { element, label } = props;
  const slicing = element.slicing;
  const items = Array.isArray(props.parent[element.name]) ? (props.parent[element.name] as unknown[]) : [];
  if (!slicing) return null;
  const groups = groupBySlice(items, element);
  const setItems = (next: unknown[]) => {
    const parent = { ...props.parent };
    if (next.length) parent[element.name] = next;
    else delete parent[element.name];
    props.onParentChange(parent);
  };
  const others = groups.others.map((index) => items[index]);
  const slicedCount = items.length - others.length;
  const otherLabel = `Other ${label}`;
  return (
    <Box sx={{ flexBasis: '100%' }} role="group" aria-label={label}>
      <Typography variant="subtitle2" component="div" sx={{ mb: 0.5 }}>
        {label}
        {element.min > 0 ? ' *' : ''}
      </Typography>
      {props.error && <FormHelperText error>{props.error}</FormHelperText>}
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        {groups.slices.map(({ slice, indexes }) => (
          <SliceGroup
            key={slice.name}
            {...props}
            slice={slice}
            indexes={indexes}
            items={items}
            onAdd={(entry) => {
              const at = sliceInsertionIndex(groups, slice, items.length);
              setItems([...items.slice(0, at), entry, ...items.slice(at)]);
            }}
            onRemove={(index) => setItems(items.filter((_, i) => i !== index))}
            onEntryChange={(index, entry) => {
              const next = [...items];
              // An emptied entry stays as a placeholder (its fixed values keep it in the slice).
              next[index] = entry ?? {};
              setItems(next);
            }}
          />
        ))}
        {acceptsOtherValues(slicing) && (
          <ElementField
            element={{ ...element, slicing: undefined, min: 0, max: Math.max(0, element.max - slicedCount) }}
            unsliced
            label={otherLabel}
            schema={props.schema}
            path={props.path}
            parent={others.length ? { [element.name]: others } : {}}
            disabled={props.disabled}
            onParentChange={(next) => {
              const value = next[element.name];
              setItems(replaceOtherValues(items, groups.others, others, Array.isArray(value) ? value : []));
            }}
          />
        )}
      </Box>
    </Box>
  );
}

interface SliceGroupProps extends SlicedElementFieldProps {
  slice: SliceModel;
  indexes: number[];
  items: unknown[];
  onAdd: (entry: unknown) => void;
  onRemove: (index: number) => void;
  onEntryChange: (index: number, entry: unknown) => void;
}

/** One slice: a fieldset named by the slice with its entries, add and remove within the slice's cardinality. */
function SliceGroup(props: SliceGroupProps) {
  const { slice, indexes, element } = props;
  const context = useResourceFormContext();
  const name = sliceLabel(slice);
  const profileUrl = slice.types.find((t) => t.code === 'Extension')?.profiles[0];
  // The extension's profile says which nested slices a new entry needs (race: its text).
  const profile = useTypeSchema(profileUrl ? 'Extension' : undefined, profileUrl);
  const error = context.errors.get(stripIndexes(`${props.path}:${slice.name}`));
  const canAdd = !props.disabled && canAddToSlice(slice, indexes.length, element, props.items.length);
  const canRemove = !props.disabled && canRemoveFromSlice(slice, indexes.length);
  const single = slice.max === 1;
  return (
    <Box
      component="fieldset"
      aria-label={name}
      sx={{
        border: 1,
        borderColor: error ? 'error.main' : 'divider',
        borderRadius: 1,
        m: 0,
        p: 1.5,
        minWidth: 0,
      }}
    >
      <Typography component="legend" variant="caption" sx={{ px: 0.5, color: 'text.secondary' }}>
        {name}
        {slice.min > 0 ? ' *' : ''}
        <Box component="span" sx={{ ml: 1 }}>
          ({slice.min}..{slice.max === Infinity ? '*' : slice.max})
        </Box>
        {sliceDescription(slice) && (
          <Box component="span" sx={{ ml: 1 }}>
            · {sliceDescription(slice)}
          </Box>
        )}
      </Typography>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
        {indexes.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            (none)
          </Typography>
        )}
        {indexes.map((index, n) => (
          <Box key={index} sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <SliceEntryInput
                element={element}
                slice={slice}
                schema={props.schema}
                path={`${props.path}[${index}]`}
                label={single ? name : `${name} ${n + 1}`}
                grouped={!single}
                value={props.items[index]}
                disabled={props.disabled}
                onChange={(entry) => props.onEntryChange(index, entry)}
              />
            </Box>
            {canRemove && (
              <IconButton aria-label={`Remove ${name} ${n + 1}`} onClick={() => props.onRemove(index)}>
                <DeleteIcon />
              </IconButton>
            )}
          </Box>
        ))}
        {canAdd && (
          <Box>
            <Button
              size="small"
              startIcon={<AddIcon />}
              disabled={!!profileUrl && !profile.data && !profile.error}
              onClick={() => props.onAdd(profiledSliceInitialValue(slice, profile.data))}
            >
              Add {name}
            </Button>
          </Box>
        )}
      </Box>
      {error && <FormHelperText error>{error}</FormHelperText>}
    </Box>
  );
}
