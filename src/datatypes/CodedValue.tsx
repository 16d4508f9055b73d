import { Typography } from '@mui/material';
import type { CodeableConcept, Coding } from '@medplum/fhirtypes';
import { codeKey } from '../search/searchColumns';
import { formatTypedValue } from './formatValue';
import { useLookedUpCoding } from './useLookedUpCoding';

/**
 * A Coding or CodeableConcept as the record names it, else as its code system does — the same
 * text the console list shows. A name that came from the code system keeps the stored code in the
 * title (`system|code`, as a token search writes it), the way a looked-up reference keeps its
 * `Type/id`; until the name arrives, or if it never does, the code shows as it is.
 */
export function CodedValue(props: { value: Coding | CodeableConcept; type: 'Coding' | 'CodeableConcept' }) {
  const named = useLookedUpCoding(props.value, props.type);
  return (
    <Typography
      variant="body2"
      sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
      title={named ? codeKey(named.system, named.code) : undefined}
    >
      {named?.display ?? formatTypedValue(props.value, props.type)}
    </Typography>
  );
}
