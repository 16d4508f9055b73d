import type { Extension } from '@medplum/fhirtypes';
import type { InputProps } from './inputProps';
import { ComplexTypeInput } from './ComplexTypeInput';

/** Extension: its url and a typed value[x] (from the Extension definition). */
export function ExtensionInput(props: InputProps<Extension>) {
  return <ComplexTypeInput {...props} type="Extension" showExtensions={false} />;
}
