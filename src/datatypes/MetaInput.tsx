import type { Meta } from '@medplum/fhirtypes';
import type { InputProps } from './inputProps';
import { ComplexTypeInput } from './ComplexTypeInput';

/** Server-managed Meta elements are shown but never edited. */
export const SERVER_MANAGED_META = [
  'versionId',
  'lastUpdated',
  'project',
  'author',
  'compartment',
  'account',
  'accounts',
  'onBehalfOf',
];

/** Meta: profile, tag, security and source are editable; versionId, lastUpdated and Medplum's references are not. */
export function MetaInput(props: InputProps<Meta>) {
  return <ComplexTypeInput {...props} type="Meta" readonlyChildren={SERVER_MANAGED_META} showExtensions={false} />;
}
