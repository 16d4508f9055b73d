import type { ReactElement } from 'react';
import { useParams } from 'react-router-dom';
import { AccessPolicyNotice } from './AccessPolicyNotice';
import { chartListLabel } from './chartListLabel';
import { useChartAccess } from './useChartAccess';

/**
 * A record under `/Patient/{id}/{resourceType}/{id}` (a link from elsewhere, a typed address) of a
 * type the caller's policy does not let them read: said as the tab's list says it, rather than the
 * record page's 403.
 */
export function RecordAccessGate({ children }: { children: ReactElement }) {
  const { resourceType = '' } = useParams();
  const access = useChartAccess();
  return access.canSearch(resourceType) ? children : <AccessPolicyNotice label={chartListLabel(resourceType)} />;
}
