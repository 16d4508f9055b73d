import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderChart } from './chartPageTestSupport';

/**
 * The chart below 900 px (a tablet, 768–899): the summary above the tabs across the width, compact,
 * its sections behind "Show summary" but the allergies always in view; a link into the tabs brings
 * the tab content to the top. happy-dom evaluates the theme's media queries against its viewport.
 */

type HappyDomWindow = Window & { happyDOM: { setViewport(viewport: { width: number; height: number }): void } };
const happyDom = (window as unknown as HappyDomWindow).happyDOM;
const initialViewport = { width: window.innerWidth, height: window.innerHeight };
afterEach(() => {
  happyDom.setViewport(initialViewport);
  vi.restoreAllMocks();
});

const summary = () => screen.getByRole('complementary', { name: 'Patient summary' });

describe('The chart below 900 px', { timeout: 30_000 }, () => {
  for (const width of [768, 899]) {
    it(`at ${width} px: the summary is compact, allergies in view, the rest behind "Show summary"`, async () => {
      happyDom.setViewport({ width, height: 1024 });
      const user = userEvent.setup();
      renderChart('/Patient/p1');
      await within(summary()).findByText('Allergy to penicillin');
      expect(summary().querySelector('[data-patient-summary]')).toHaveAttribute('data-compact', 'true');
      const toggle = within(summary()).getByRole('button', { name: 'Show summary' });
      expect(toggle).toHaveAttribute('aria-expanded', 'false');
      expect(
        within(summary()).getByText(/Problem List, Medications, Sexual Orientation, Smoking Status, Vitals/),
      ).toBeVisible();
      // Folded: kept (its data and drafts stay) but not shown.
      const problems = summary().querySelector('section[aria-labelledby="summary-problem-list"]');
      expect(problems).toBeInTheDocument();
      expect(problems).not.toBeVisible();
      expect(within(summary()).queryByRole('region', { name: 'Problem List' })).not.toBeInTheDocument();
      // The tabs are there under the compact summary.
      expect(screen.getByRole('region', { name: 'Chart' })).toBeInTheDocument();

      await user.click(toggle);
      expect(within(summary()).getByRole('button', { name: 'Hide summary' })).toHaveAttribute('aria-expanded', 'true');
      await waitFor(() => expect(within(summary()).getByRole('region', { name: 'Problem List' })).toBeVisible());
      expect(within(summary()).getByText('Essential hypertension')).toBeVisible();
    });
  }

  it('brings the tab content to the top when a summary link ("1 open task") is followed', async () => {
    happyDom.setViewport({ width: 768, height: 1024 });
    const scrolled: Element[] = [];
    vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(function (this: HTMLElement) {
      scrolled.push(this);
    });
    const user = userEvent.setup();
    renderChart('/Patient/p1');
    const link = await within(summary()).findByRole('link', { name: '1 open task' });
    // Opening the chart shows its top: nothing scrolled yet.
    expect(scrolled).toEqual([]);
    await user.click(link);
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/Patient/p1/Task'));
    await waitFor(() => expect(scrolled).toContain(screen.getByRole('region', { name: 'Chart' })));
  });

  it('keeps the 350 px sidebar beside the tabs from 900 px on, every section shown, nothing scrolled', async () => {
    happyDom.setViewport({ width: 1280, height: 900 });
    const scrolled: Element[] = [];
    vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(function (this: HTMLElement) {
      scrolled.push(this);
    });
    const user = userEvent.setup();
    renderChart('/Patient/p1');
    await within(summary()).findByText('Essential hypertension');
    expect(summary().querySelector('[data-patient-summary]')).not.toHaveAttribute('data-compact');
    expect(within(summary()).queryByRole('button', { name: 'Show summary' })).not.toBeInTheDocument();
    await user.click(await within(summary()).findByRole('link', { name: '1 open task' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/Patient/p1/Task'));
    expect(scrolled).toEqual([]);
  });
});
