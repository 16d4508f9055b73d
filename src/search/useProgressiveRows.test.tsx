import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FIRST_ROWS, useProgressiveRows } from './useProgressiveRows';

const page = (size: number, tag: string) => Array.from({ length: size }, (_, i) => `${tag}${i}`);

describe('useProgressiveRows', () => {
  it('renders a first screenful at once, then fills in the rest; a new page starts over', async () => {
    const first = page(1000, 'a');
    const { result, rerender } = renderHook(({ rows }) => useProgressiveRows(rows), { initialProps: { rows: first } });
    expect(result.current).toHaveLength(FIRST_ROWS);
    expect(result.current[0]).toBe('a0');
    await waitFor(() => expect(result.current).toHaveLength(1000));
    expect(result.current).toBe(first);

    const second = page(1000, 'b');
    rerender({ rows: second });
    expect(result.current).toHaveLength(FIRST_ROWS);
    expect(result.current[0]).toBe('b0');
    await waitFor(() => expect(result.current).toBe(second));
  });

  it('a short page is shown whole at once', () => {
    const rows = page(20, 'c');
    const { result } = renderHook(() => useProgressiveRows(rows));
    expect(result.current).toBe(rows);
  });
});
