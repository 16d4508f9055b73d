import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { chartPatient, patientPortalPolicy, renderChartAs, requestedTypes } from '../chartAccessTestSupport';

describe('a patient’s own timeline', { timeout: 30_000 }, () => {
  it('leaves out the care team’s tasks (without asking for them), and opens a message in their messages', async () => {
    const fake = renderChartAs({ policy: patientPortalPolicy, profile: chartPatient }, '/Patient/p1');
    const timeline = await screen.findByTestId('timeline');
    await within(timeline).findByText('Complete blood count');
    const entries = within(timeline)
      .getAllByRole('article')
      .map((article) => article.getAttribute('aria-label'));
    expect(entries).toEqual([
      'Message: From Dr. Alice Carter',
      'Patient record: created',
      'Report: Complete blood count',
    ]);
    expect(within(timeline).queryByText('Review lab order')).not.toBeInTheDocument();
    expect(requestedTypes(fake)).not.toContain('Task');
    // Their messages are the portal's home: the chart's chat is the care team's, and sent them back here.
    expect(within(timeline).getByRole('link', { name: 'From Dr. Alice Carter' })).toHaveAttribute('href', '/');
    expect(within(timeline).getByRole('link', { name: 'Complete blood count' })).toHaveAttribute(
      'href',
      '/Patient/p1/DiagnosticReport/r1',
    );
    // Nothing is said to be left out: the tasks are not part of their record.
    expect(screen.queryByText(/Not shown under your access policy/)).not.toBeInTheDocument();
  });

  it('still lists the tasks for the care team', async () => {
    renderChartAs({}, '/Patient/p1');
    const timeline = await screen.findByTestId('timeline');
    expect(await within(timeline).findByText('Review lab order')).toBeInTheDocument();
    expect(within(timeline).getByRole('link', { name: 'From Dr. Alice Carter' })).toHaveAttribute(
      'href',
      '/Patient/p1/Communication/c1',
    );
  });
});
