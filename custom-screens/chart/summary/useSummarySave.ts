import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../../src/shell/toasts';
import { summaryQueryKey, type SummaryPart } from './summaryQueries';

/**
 * After a modal saved: the section loads anew (its search and the chart's tab lists of the same
 * type) and a toast says what was saved.
 */
export function useSummarySaved(patientId: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useCallback(
    async (part: SummaryPart, resourceType: string, message: string) => {
      toast.success(message);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: summaryQueryKey(patientId, part) }),
        queryClient.invalidateQueries({ queryKey: ['hearth-search', resourceType] }),
      ]);
    },
    [queryClient, toast, patientId],
  );
}
