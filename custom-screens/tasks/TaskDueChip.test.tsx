import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TaskDueChip } from './TaskDueChip';

// Noon local time on 27 Nov 2026: the due states compare calendar days in the viewer's zone.
beforeEach(() => vi.useFakeTimers({ now: new Date(2026, 10, 27, 12), toFake: ['Date'] }));
afterEach(() => vi.useRealTimers());

function chip(due: string | undefined, inDueColumn?: boolean, status?: string): HTMLElement | null {
  const { container } = render(<TaskDueChip due={due} inDueColumn={inDueColumn} status={status} />);
  return container.querySelector('[data-due]');
}

describe('TaskDueChip', () => {
  it('says overdue in words with the day, wherever it is shown', () => {
    expect(chip('2026-11-26')).toHaveAttribute('data-due', 'overdue');
    expect(screen.getByText(/^Overdue · .*2026$/)).toBeInTheDocument();
  });

  it('in a list says "Due"; under a Due column it does not repeat it', () => {
    expect(chip('2026-11-27')).toHaveTextContent(/^Due today$/);
    expect(chip('2026-11-27', true)).toHaveTextContent(/^Today$/);
    expect(chip('2026-11-29')).toHaveAttribute('data-due', 'soon');
    expect(chip('2026-12-24')).toHaveTextContent(/^Due .*2026$/);
    const later = chip('2026-12-24', true);
    expect(later).toHaveAttribute('data-due', 'later');
    expect(later?.textContent).not.toMatch(/Due/);
  });

  it('never breaks the date itself: a narrow column may wrap only between "Overdue ·" and the day', () => {
    const overdue = chip('2026-11-26', true);
    const text = overdue?.textContent ?? '';
    const day = text.slice(text.indexOf('·') + 2);
    expect(day).toMatch(/2026$/);
    expect(day).not.toMatch(/ /);
    expect(text).toMatch(/^Overdue · /);
  });

  it("shows a finished task's past date plainly, never as overdue", () => {
    for (const status of ['completed', 'cancelled', 'rejected', 'failed', 'entered-in-error']) {
      const done = chip('2020-01-01', false, status);
      expect(done).toHaveAttribute('data-due', 'finished');
      expect(done).toHaveTextContent(/^Due 1 Jan 2020$/);
      expect(chip('2020-01-01', true, status)).toHaveTextContent(/^1 Jan 2020$/);
    }
    expect(chip('2020-01-01', false, 'in-progress')).toHaveAttribute('data-due', 'overdue');
  });

  it('shows nothing without a due date, or with one it cannot read', () => {
    expect(chip(undefined)).toBeNull();
    expect(chip('soon')).toBeNull();
  });
});
