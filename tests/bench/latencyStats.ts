/** Percentiles of a list of latencies in milliseconds (nearest-rank). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export interface LatencySummary {
  count: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
}

export function summarize(latencies: number[], seconds: number): LatencySummary {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    count: sorted.length,
    perSecond: sorted.length / seconds,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
  };
}
