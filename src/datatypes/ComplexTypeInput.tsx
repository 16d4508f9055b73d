import { CircularProgress, FormHelperText } from '@mui/material';
import { useTypeSchema } from '../resources/schemaHooks';
import { childElements } from '../resources/typeSchema';
import { ElementField } from './ElementField';
import { FieldGroup } from './FieldGroup';
import type { InputProps } from './inputProps';

/** Any datatype without its own input: the elements of its definition, each with its typed input. */
export function ComplexTypeInput(
  props: Omit<InputProps<object>, 'onChange' | 'value'> & {
    value: object | undefined;
    // Each datatype input passes its own narrower callback; this input only hands back objects of the type.
    onChange: (value: never) => void;
    type: string;
    readonlyChildren?: readonly string[];
    showExtensions?: boolean;
  },
) {
  const onChange = props.onChange as (value: object | undefined) => void;
  const schema = useTypeSchema(props.type);
  if (schema.error) return <FormHelperText error>{schema.error.message}</FormHelperText>;
  if (!schema.data) return <CircularProgress size={20} aria-label="Loading..." />;
  const value = (props.value ?? {}) as Record<string, unknown>;
  const elements = childElements(schema.data, '').filter(
    (element) => element.name !== 'id' && (props.showExtensions !== false || element.name !== 'extension'),
  );
  return (
    <FieldGroup label={props.label} required={props.required} error={props.error}>
      {elements.map((element) => (
        <ElementField
          key={element.path}
          element={element}
          schema={schema.data}
          path={`${props.path}.${element.name}`}
          parent={value}
          disabled={props.disabled || props.readonlyChildren?.includes(element.name)}
          onParentChange={(next) => onChange(Object.keys(next).length ? next : undefined)}
        />
      ))}
    </FieldGroup>
  );
}
