import { useMemo } from 'react';
import type { Resource } from '@medplum/fhirtypes';
import type { SearchParameterModel, TypeSchema } from '../resources/typeSchema';
import { columnCodedPaths, columnReferencePaths, type ColumnNames } from './searchColumns';
import { unnamedCodes } from './unnamedCodes';
import { unnamedReferences } from './unnamedReferences';
import { useCodeDisplays } from './useCodeDisplays';
import { useReferenceNames } from './useReferenceNames';

/**
 * What a shown page's columns learn after it is shown: the names of the references and the
 * displays of the codes that carry none (imported records point at `Patient/1f50…` and say
 * `institutional`). Empty until the answers arrive, and for what cannot be looked up.
 */
export function usePageNames(
  resources: readonly Resource[],
  fields: readonly string[],
  schema: TypeSchema | undefined,
  parameters: readonly SearchParameterModel[] | undefined,
): ColumnNames {
  const { references, codes } = useMemo(
    () => ({
      references: unnamedReferences(
        resources,
        fields.flatMap((field) => columnReferencePaths(field, schema, parameters)),
      ),
      codes: unnamedCodes(
        resources,
        fields.flatMap((field) => columnCodedPaths(field, schema, parameters)),
      ),
    }),
    [resources, fields, schema, parameters],
  );
  const referenceNames = useReferenceNames(references);
  const codeDisplays = useCodeDisplays(codes);
  return useMemo(() => ({ references: referenceNames, codes: codeDisplays }), [referenceNames, codeDisplays]);
}
