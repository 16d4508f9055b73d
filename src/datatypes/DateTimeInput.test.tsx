import { useState } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { localZone, type TemporalType } from './dateTimeValue';
import { PrimitiveInput } from './PrimitiveInput';

/** One temporal input through PrimitiveInput (as the editor renders it), its value in state. */
function renderTemporal(type: TemporalType, initial?: string) {
  const changes: (string | undefined)[] = [];
  function Harness() {
    const [value, setValue] = useState<string | undefined>(initial);
    return (
      <PrimitiveInput
        type={type}
        label="When"
        path="Test.when"
        value={value}
        onChange={(next) => {
          changes.push(next as string | undefined);
          setValue(next as string | undefined);
        }}
      />
    );
  }
  render(<Harness />);
  return {
    changes,
    last: () => changes[changes.length - 1],
    text: () => screen.getByLabelText('When') as HTMLInputElement,
    picker: () => screen.getByLabelText('When picker') as HTMLInputElement,
    user: userEvent.setup({ delay: null }),
  };
}

async function retype(user: ReturnType<typeof userEvent.setup>, input: HTMLElement, text: string) {
  await user.clear(input);
  if (text) await user.type(input, text);
  await user.tab();
}

describe('date and time inputs', { timeout: 30_000 }, () => {
  it('date: full and partial dates shown exactly; the picker only for a full date; untouched hands nothing back', () => {
    const full = renderTemporal('date', '1980-04-05');
    expect(full.text()).toHaveValue('1980-04-05');
    expect(full.picker()).toHaveAttribute('type', 'date');
    expect(full.picker()).toHaveValue('1980-04-05');
    expect(full.changes).toEqual([]);
  });

  it('date: a year and a year-month are edited as what they are', async () => {
    const { text, picker, last, changes, user } = renderTemporal('date', '1980');
    expect(text()).toHaveValue('1980');
    expect(picker()).toHaveValue('');
    expect(screen.getByText('Year only')).toBeInTheDocument();
    expect(changes).toEqual([]);
    await retype(user, text(), '1980-04');
    expect(last()).toBe('1980-04');
    expect(screen.getByText('Year and month')).toBeInTheDocument();
    fireEvent.change(picker(), { target: { value: '1981-02-03' } });
    expect(last()).toBe('1981-02-03');
    expect(text()).toHaveValue('1981-02-03');
  });

  it('date: invalid text stays, is handed back as typed and gets the message under the field', async () => {
    const { text, last, user } = renderTemporal('date', '1980-04-05');
    await retype(user, text(), '1980-4-5');
    expect(text()).toHaveValue('1980-4-5');
    expect(last()).toBe('1980-4-5');
    expect(text()).toHaveAccessibleDescription('Invalid date: use YYYY, YYYY-MM or YYYY-MM-DD');
    expect(text()).toHaveAttribute('aria-invalid', 'true');
    await retype(user, text(), '');
    expect(last()).toBeUndefined();
    expect(text()).toHaveAttribute('aria-invalid', 'false');
  });

  it('dateTime: an offset like +05:30 is shown and kept; the picker edits the wall clock in that offset', async () => {
    const { text, picker, last, changes } = renderTemporal('dateTime', '2024-05-06T07:08:09.123+05:30');
    expect(text()).toHaveValue('2024-05-06T07:08:09.123+05:30');
    expect(picker()).toHaveAttribute('type', 'datetime-local');
    expect(picker()).toHaveValue('2024-05-06T07:08:09');
    expect(screen.getByText('Time at UTC+05:30')).toBeInTheDocument();
    expect(changes).toEqual([]);
    fireEvent.change(picker(), { target: { value: '2024-05-07T10:00' } });
    expect(last()).toBe('2024-05-07T10:00:00+05:30');
    expect(text()).toHaveValue('2024-05-07T10:00:00+05:30');
  });

  it('dateTime: Z stays Z when the time is retyped without an offset', async () => {
    const { text, last, user } = renderTemporal('dateTime', '2024-05-06T07:08:09Z');
    expect(screen.getByText('Time in UTC (Z)')).toBeInTheDocument();
    await retype(user, text(), '2024-05-06T08:30');
    expect(last()).toBe('2024-05-06T08:30:00Z');
    // Leaving the field shows what will be saved.
    expect(text()).toHaveValue('2024-05-06T08:30:00Z');
  });

  it("dateTime: a new value takes the user's offset, shown in the text", () => {
    const { text, picker, last } = renderTemporal('dateTime');
    fireEvent.change(picker(), { target: { value: '2024-01-15T09:15' } });
    const zone = localZone('2024-01-15T09:15:00');
    expect(last()).toBe(`2024-01-15T09:15:00${zone}`);
    expect(text()).toHaveValue(`2024-01-15T09:15:00${zone}`);
  });

  it('dateTime: partial dates stay partial; a time without an offset never slips through', async () => {
    const { text, picker, last, changes, user } = renderTemporal('dateTime', '1980-04');
    expect(text()).toHaveValue('1980-04');
    expect(picker()).toHaveValue('');
    expect(changes).toEqual([]);
    await retype(user, text(), '1980');
    expect(last()).toBe('1980');
    await retype(user, text(), '2024-05-06T07');
    expect(last()).toBe('2024-05-06T07');
    expect(text()).toHaveAccessibleDescription(
      /^Invalid dateTime: use YYYY, YYYY-MM, YYYY-MM-DD or YYYY-MM-DDThh:mm:ss/,
    );
  });

  it('dateTime: a stored invalid value is shown as it is and flagged at once', () => {
    const { text, changes } = renderTemporal('dateTime', '2024-05-06 07:08');
    expect(text()).toHaveValue('2024-05-06 07:08');
    expect(text()).toHaveAccessibleDescription(/^Invalid dateTime/);
    expect(changes).toEqual([]);
  });

  it('instant: requires seconds and a zone; an edit keeps the zone it had', async () => {
    const { text, picker, last, changes, user } = renderTemporal('instant', '2024-05-06T07:08:09.5-03:00');
    expect(text()).toHaveValue('2024-05-06T07:08:09.5-03:00');
    expect(picker()).toHaveValue('2024-05-06T07:08:09');
    expect(changes).toEqual([]);
    await retype(user, text(), '2024-05-06');
    expect(last()).toBe('2024-05-06');
    expect(text()).toHaveAccessibleDescription('Invalid instant: use YYYY-MM-DDThh:mm:ss[.sss] with Z or ±hh:mm');
    await retype(user, text(), '2024-05-06T11:12');
    expect(last()).toBe('2024-05-06T11:12:00-03:00');
    expect(text()).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('time: hh:mm is saved as hh:mm:00, hh:mm:ss as typed, anything else is flagged', async () => {
    const { text, picker, last, changes, user } = renderTemporal('time', '14:30:15.25');
    expect(text()).toHaveValue('14:30:15.25');
    expect(picker()).toHaveAttribute('type', 'time');
    expect(picker()).toHaveValue('14:30:15');
    expect(changes).toEqual([]);
    await retype(user, text(), '09:45');
    expect(last()).toBe('09:45:00');
    expect(text()).toHaveValue('09:45:00');
    await retype(user, text(), '9:45');
    expect(last()).toBe('9:45');
    expect(text()).toHaveAccessibleDescription('Invalid time: use hh:mm or hh:mm:ss[.sss]');
    fireEvent.change(picker(), { target: { value: '18:05' } });
    expect(last()).toBe('18:05:00');
    expect(text()).toHaveValue('18:05:00');
  });

  it('a server issue shows under the field when the text itself is valid', () => {
    render(
      <PrimitiveInput
        type="date"
        label="When"
        path="Test.when"
        value="2030-01-01"
        error="Birth date in the future"
        onChange={() => undefined}
      />,
    );
    expect(screen.getByLabelText('When')).toHaveAccessibleDescription('Birth date in the future');
  });
});
