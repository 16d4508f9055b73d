import { useMemo } from 'react';
import { useFhirClient } from '../../src/resources/useFhirClient';
import { chartAccessOf, type ChartAccess } from './chartAccess';

/**
 * The caller's access in the chart, from the client's session rather than a context: the chart
 * frame asks for the summary's searches above its providers, and every caller of this hook must
 * decide the same, so that they ask for (and share) the same searches.
 */
export function useChartAccess(): ChartAccess {
  const client = useFhirClient();
  const policy = client.getAccessPolicy();
  const superAdmin = client.isSuperAdmin();
  return useMemo(() => chartAccessOf({ policy, superAdmin }), [policy, superAdmin]);
}
