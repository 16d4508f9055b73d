import type { Dosage } from '@medplum/fhirtypes';
import type { InputProps } from './inputProps';
import { ComplexTypeInput } from './ComplexTypeInput';

/** Dosage: every element of the Dosage definition (timing, route, doseAndRate…), recursively. */
export function DosageInput(props: InputProps<Dosage>) {
  return <ComplexTypeInput {...props} type="Dosage" />;
}
