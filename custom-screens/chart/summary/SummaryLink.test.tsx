import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { SummaryLink } from './SummaryLink';

describe('SummaryLink', () => {
  it('goes to an address of the app through the router, keeping the page loaded', () => {
    render(
      <MemoryRouter initialEntries={['/Patient/p1']}>
        <Routes>
          <Route path="/Patient/p1" element={<SummaryLink href="/Patient/p1/Task">2 open tasks</SummaryLink>} />
          <Route path="/Patient/p1/Task" element={<p>Tasks tab</p>} />
        </Routes>
      </MemoryRouter>,
    );
    const link = screen.getByRole('link', { name: '2 open tasks' });
    expect(link).toHaveAttribute('href', '/Patient/p1/Task');
    fireEvent.click(link);
    expect(screen.getByText('Tasks tab')).toBeInTheDocument();
  });

  it('leaves `#`, another site and a summary without a router as plain links', () => {
    render(
      <MemoryRouter>
        <SummaryLink href="#">none</SummaryLink>
        <SummaryLink href="//elsewhere.example/x">protocol-relative</SummaryLink>
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'none' })).toHaveAttribute('href', '#');
    expect(screen.getByRole('link', { name: 'protocol-relative' })).toHaveAttribute('href', '//elsewhere.example/x');
    render(<SummaryLink href="/Patient/p1/Task">alone</SummaryLink>);
    expect(screen.getByRole('link', { name: 'alone' })).toHaveAttribute('href', '/Patient/p1/Task');
  });
});
