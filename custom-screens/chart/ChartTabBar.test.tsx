import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes, useLocation, useParams } from 'react-router-dom';
import { ChartTabBar } from './ChartTabBar';

/**
 * happy-dom lays nothing out: the bar's width is set here, and every tab is 8 px a letter plus
 * 24 px of padding (Timeline 88, Edit 56, ... Communications 136; 1120 in all), "More" 70.
 */
let barWidth = 0;
const observers = new Set<() => void>();

class FakeResizeObserver {
  private readonly callback: () => void;
  constructor(callback: () => void) {
    this.callback = callback;
  }
  observe() {
    observers.add(this.callback);
  }
  unobserve() {}
  disconnect() {
    observers.delete(this.callback);
  }
}

function widthOf(element: Element): number {
  if (element.getAttribute('data-ruler') === 'tab') return (element.textContent ?? '').length * 8 + 24;
  if (element.getAttribute('data-ruler') === 'more') return 70;
  // The bar: the box around the tab list and the ruler.
  if (element.querySelector(':scope > .MuiTabs-root')) return barWidth;
  return 0;
}

/** The container (not the window) changes width, as when the navigation opens beside the chart. */
function resizeBar(width: number) {
  barWidth = width;
  act(() => observers.forEach((callback) => callback()));
}

beforeEach(() => {
  vi.stubGlobal('ResizeObserver', FakeResizeObserver);
  vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
    return new DOMRect(0, 0, widthOf(this), 40);
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  observers.clear();
});

function Chart() {
  const { patientId = '', '*': rest = '' } = useParams();
  const location = useLocation();
  return (
    <>
      <ChartTabBar patientId={patientId} segment={rest.split('/')[0] || undefined} ePrescribing patientView={false} />
      <output aria-label="Location">{location.pathname}</output>
    </>
  );
}

function renderBar(path: string, width: number) {
  barWidth = width;
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/Patient/:patientId/*" element={<Chart />} />
      </Routes>
    </MemoryRouter>,
  );
}

const tabNames = () =>
  within(screen.getByRole('tablist', { name: 'Chart tabs' }))
    .getAllByRole('tab')
    .map((tab) => tab.textContent);

async function openMore() {
  await userEvent.click(screen.getByRole('button', { name: 'More tabs' }));
  return screen.getByRole('menu', { name: 'More tabs' });
}

describe('ChartTabBar', { timeout: 20_000 }, () => {
  it('wraps the tabs onto two rows of its width and puts those that still do not fit in a More menu, routes unchanged', async () => {
    // 340 px less 70 for More: rows of 270 hold Timeline, Edit, Encounter | Tasks, Meds, Labs, Devices.
    renderBar('/Patient/p1/timeline', 340);
    expect(tabNames()).toEqual(['Timeline', 'Edit', 'Encounter', 'Tasks', 'Meds', 'Labs', 'Devices']);
    const more = screen.getByRole('button', { name: 'More tabs' });
    expect(more).toHaveAttribute('aria-haspopup', 'menu');
    expect(more).not.toHaveAttribute('aria-expanded');

    const menu = await openMore();
    expect(more).toHaveAttribute('aria-expanded', 'true');
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Reports',
      'Documents',
      'Appointments',
      'Care Plans',
      'Communications',
      'DoseSpot',
    ]);
    expect(items.map((item) => item.getAttribute('href'))).toEqual([
      '/Patient/p1/DiagnosticReport',
      '/Patient/p1/DocumentReference',
      '/Patient/p1/Appointment',
      '/Patient/p1/CarePlan',
      '/Patient/p1/communication',
      '/Patient/p1/dosespot',
    ]);
  });

  it('keeps the active tab in the bar, selected and at its own route, when it would not fit', async () => {
    renderBar('/Patient/p1/CarePlan', 340);
    // Care Plans takes the last place; Labs and Devices, which no longer fit beside it, go into the menu.
    expect(tabNames()).toEqual(['Timeline', 'Edit', 'Encounter', 'Tasks', 'Meds', 'Care Plans']);
    const active = screen.getByRole('tab', { name: 'Care Plans' });
    expect(active).toHaveAttribute('aria-selected', 'true');
    expect(active).toHaveAttribute('href', '/Patient/p1/CarePlan');
    const menu = await openMore();
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Labs', 'Devices', 'Reports', 'Documents', 'Appointments', 'Communications', 'DoseSpot']);
  });

  it('is used from the keyboard: More opens with Enter, arrows choose, Enter follows, and the chosen tab has the focus', async () => {
    renderBar('/Patient/p1/timeline', 340);
    screen.getByRole('button', { name: 'More tabs' }).focus();
    await userEvent.keyboard('{Enter}');
    const menu = screen.getByRole('menu', { name: 'More tabs' });
    await waitFor(() => expect(within(menu).getByRole('menuitem', { name: 'Reports' })).toHaveFocus());
    await userEvent.keyboard('{ArrowDown}');
    expect(within(menu).getByRole('menuitem', { name: 'Documents' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');

    expect(screen.getByRole('status', { name: 'Location' })).toHaveTextContent('/Patient/p1/DocumentReference');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    const documents = screen.getByRole('tab', { name: 'Documents' });
    expect(documents).toHaveAttribute('aria-selected', 'true');
    await waitFor(() => expect(documents).toHaveFocus());
    // Escape closes the menu and hands the focus back to its button.
    const more = screen.getByRole('button', { name: 'More tabs' });
    await userEvent.click(more);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(more).toHaveFocus();
  });

  it("follows its container's width, not the window's: all tabs and no More once two rows hold them", () => {
    renderBar('/Patient/p1/timeline', 340);
    const windowWidth = window.innerWidth;
    expect(screen.getByRole('button', { name: 'More tabs' })).toBeVisible();

    // Timeline ... Documents (672 px) | Appointments, Care Plans, Communications, DoseSpot (448 px).
    resizeBar(700);
    expect(window.innerWidth).toBe(windowWidth);
    expect(tabNames()).toEqual([
      'Timeline',
      'Edit',
      'Encounter',
      'Tasks',
      'Meds',
      'Labs',
      'Devices',
      'Reports',
      'Documents',
      'Appointments',
      'Care Plans',
      'Communications',
      'DoseSpot',
    ]);
    expect(screen.queryByRole('button', { name: 'More tabs' })).toBeNull();

    resizeBar(340);
    expect(screen.getByRole('button', { name: 'More tabs' })).toBeVisible();
  });
});
