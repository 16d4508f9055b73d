import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Task } from '@medplum/fhirtypes';
import { RequiredActions } from './RequiredActions';

beforeEach(() => vi.useFakeTimers({ now: new Date(2026, 10, 27, 12), toFake: ['Date'] }));
afterEach(() => vi.useRealTimers());

const task = (id: string, text: string, due?: string): Task => ({
  resourceType: 'Task',
  id,
  status: 'ready',
  intent: 'order',
  code: { text },
  ...(due ? { restriction: { period: { end: due } } } : {}),
});

describe('RequiredActions', () => {
  it('shows each open task with its status and how urgent its due date is, linking to its page', () => {
    render(
      <MemoryRouter>
        <RequiredActions
          patientId="p1"
          tasks={[task('t1', 'Call back', '2026-11-25'), task('t2', 'Review labs', '2026-12-20'), task('t3', 'File')]}
        />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { name: 'Required actions (3)' })).toBeInTheDocument();
    const items = within(screen.getByRole('list', { name: 'Required actions' })).getAllByRole('link');
    expect(items[0]).toHaveAttribute('href', '/Patient/p1/task/t1/details');
    const chip = (item: HTMLElement) => item.querySelector('[data-due]');
    expect(chip(items[0])).toHaveAttribute('data-due', 'overdue');
    expect(chip(items[0])).toHaveTextContent(/^Overdue · .*2026$/);
    expect(chip(items[1])).toHaveAttribute('data-due', 'later');
    expect(chip(items[1])).toHaveTextContent(/^Due /);
    expect(chip(items[2])).toBeNull();
    expect(within(items[2]).getByText('ready')).toBeInTheDocument();
  });

  it('says what each task is about when its description adds to its title', () => {
    render(
      <MemoryRouter>
        <RequiredActions
          patientId="p1"
          tasks={[
            { ...task('t1', 'Review lab results'), description: 'Review Lipid panel with direct LDL' },
            { ...task('t2', 'Call back'), description: 'call back' },
            { resourceType: 'Task', id: 't3', status: 'ready', intent: 'order', description: 'Fax the referral' },
          ]}
        />
      </MemoryRouter>,
    );
    const items = within(screen.getByRole('list', { name: 'Required actions' })).getAllByRole('link');
    expect(items[0]).toHaveTextContent('Review lab results');
    expect(items[0]).toHaveTextContent('Review Lipid panel with direct LDL');
    // A description that only repeats the title is not said twice; one without a code is the title.
    expect(within(items[1]).getAllByText(/call back/i)).toHaveLength(1);
    expect(within(items[2]).getAllByText('Fax the referral')).toHaveLength(1);
  });

  it('says when the patient has no open task, and shows a failed load', () => {
    const { rerender } = render(<RequiredActions patientId="p1" tasks={[]} />);
    expect(screen.getByText('No open tasks for this patient.')).toBeInTheDocument();
    rerender(<RequiredActions patientId="p1" tasks={undefined} error={new Error('Forbidden')} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Forbidden');
    expect(screen.getByRole('heading', { name: 'Required actions (…)' })).toBeInTheDocument();
  });
});
