import { useEffect, useState } from 'react';
import { useShellClient } from './shellClient';
import { GLOBAL_SEARCH_DEBOUNCE_MS, globalSearchQuery, rankSearchHits, type SearchHit } from './globalSearch';

type SearchData = Partial<Record<'Patients1' | 'Patients2' | 'ServiceRequestList', SearchHit[] | null>>;

export interface GlobalSearchState {
  hits: SearchHit[];
  loading: boolean;
  error?: string;
  /** The trimmed text the hits answer, so a caller can tell a fresh answer from a stale one. */
  answered?: string;
}

/** Suggestions for the typed text, searched 100 ms after typing stops; older answers are dropped. */
export function useGlobalSearch(text: string): GlobalSearchState {
  const client = useShellClient();
  const [state, setState] = useState<GlobalSearchState>({ hits: [], loading: false });
  useEffect(() => {
    const trimmed = text.trim();
    if (!trimmed) {
      setState({ hits: [], loading: false });
      return;
    }
    const controller = new AbortController();
    setState((previous) => ({ ...previous, loading: true }));
    const timer = setTimeout(() => {
      const { query, variables } = globalSearchQuery(trimmed);
      client
        .graphql<SearchData>(query, undefined, variables, { signal: controller.signal })
        .then((response) => {
          if (controller.signal.aborted) return;
          const data = response.data ?? {};
          const hits = rankSearchHits([data.Patients1, data.Patients2, data.ServiceRequestList], trimmed);
          setState({ hits, loading: false, error: response.errors?.[0]?.message, answered: trimmed });
        })
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          setState({
            hits: [],
            loading: false,
            error: error instanceof Error ? error.message : String(error),
            answered: trimmed,
          });
        });
    }, GLOBAL_SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [client, text]);
  return state;
}
