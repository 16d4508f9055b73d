import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SearchParameterModel } from '../resources/typeSchema';
import { ColumnMenu } from './ColumnMenu';
import { FiltersDialog } from './FiltersDialog';

const parameter = (code: string, type: string) =>
  ({ code, type, expression: `Observation.${code}`, target: [], base: [] }) as unknown as SearchParameterModel;

// The suite shares one document between files (isolate: false): an anchor left in it took the first
// Tab of a later file's keyboard test.
const anchors: HTMLElement[] = [];
afterEach(() => anchors.splice(0).forEach((anchor) => anchor.remove()));

function openMenu(parameters: SearchParameterModel[]) {
  const anchor = document.createElement('button');
  document.body.appendChild(anchor);
  anchors.push(anchor);
  render(
    <ColumnMenu
      anchor={anchor}
      code={parameters[0]?.code ?? 'x'}
      parameters={parameters}
      onClose={vi.fn()}
      onSort={vi.fn()}
      onPrompt={vi.fn()}
      onAddFilters={vi.fn()}
    />,
  );
}

describe('column menu sort labels', () => {
  it('sort number and quantity columns lowest first, not A to Z', () => {
    openMenu([parameter('length', 'number')]);
    expect(screen.getByRole('menuitem', { name: 'Sort Lowest First' })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: 'Sort Highest First' })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: 'Sort A to Z' })).toBeNull();
  });

  it('sort a quantity column lowest first too', () => {
    openMenu([parameter('value-quantity', 'quantity')]);
    expect(screen.getByRole('menuitem', { name: 'Sort Lowest First' })).toBeTruthy();
  });

  it('keep oldest/newest for dates', () => {
    openMenu([parameter('date', 'date')]);
    expect(screen.getByRole('menuitem', { name: 'Sort Oldest to Newest' })).toBeTruthy();
  });

  it('keep A to Z for strings', () => {
    openMenu([parameter('name', 'string')]);
    expect(screen.getByRole('menuitem', { name: 'Sort A to Z' })).toBeTruthy();
  });
});

describe('Filters dialog field names', () => {
  it('names parameters as the Fields dialog does ("Code (code)"), sorted by name with _ parameters last', async () => {
    render(
      <FiltersDialog
        open
        filters={[{ code: 'value-quantity', operator: 'eq' as never, value: '' }]}
        parameters={[
          parameter('_lastUpdated', 'date'),
          parameter('value-quantity', 'quantity'),
          parameter('code', 'token'),
          parameter('_id', 'token'),
          parameter('based-on', 'reference'),
        ]}
        onOk={vi.fn()}
        onCancel={vi.fn()}
      />,
    );
    const field = screen.getByLabelText('Field 1');
    expect(field.textContent).toContain('Value Quantity (value-quantity)');
    await userEvent.click(field);
    const options = within(screen.getByRole('listbox')).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'Based On (based-on)',
      'Code (code)',
      'Value Quantity (value-quantity)',
      'ID (_id)',
      'Last Updated (_lastUpdated)',
    ]);
  });
});
