import { afterEach, describe, expect, it } from 'vitest';
import {
  completeTemporal,
  describeTemporal,
  FHIR_TEMPORAL_REGEX,
  fromPicker,
  isTemporalType,
  localZone,
  pickerValue,
  temporalError,
  zoneOf,
} from './dateTimeValue';

const originalZone = process.env.TZ;
afterEach(() => {
  process.env.TZ = originalZone;
});

describe('date and time value rules', () => {
  it('knows the four temporal primitives', () => {
    expect(['date', 'dateTime', 'instant', 'time'].every(isTemporalType)).toBe(true);
    expect(isTemporalType('string')).toBe(false);
  });

  it('accepts each type by its FHIR format and says what is expected otherwise', () => {
    for (const ok of ['1980', '1980-04', '1980-04-05']) expect(temporalError('date', ok)).toBeUndefined();
    expect(temporalError('date', '1980-4')).toBe('Invalid date: use YYYY, YYYY-MM or YYYY-MM-DD');
    expect(temporalError('date', '1980-02-30')).toMatch(/^Invalid date/);
    for (const ok of ['1980', '1980-04', '1980-04-05', '2024-05-06T07:08:09Z', '2024-05-06T07:08:09.123+05:30'])
      expect(temporalError('dateTime', ok)).toBeUndefined();
    // R4: a time of day needs seconds and an offset.
    expect(temporalError('dateTime', '2024-05-06T07:08')).toMatch(/^Invalid dateTime: use YYYY, YYYY-MM/);
    expect(temporalError('dateTime', '2024-05-06T07:08:09')).toMatch(/^Invalid dateTime/);
    expect(temporalError('instant', '2024-05-06T07:08:09-03:00')).toBeUndefined();
    expect(temporalError('instant', '2024-05-06')).toBe(
      'Invalid instant: use YYYY-MM-DDThh:mm:ss[.sss] with Z or ±hh:mm',
    );
    expect(temporalError('time', '14:30:00')).toBeUndefined();
    expect(temporalError('time', '25:00:00')).toBe('Invalid time: use hh:mm or hh:mm:ss[.sss]');
    expect(temporalError('time', undefined)).toBeUndefined();
  });

  it('the FHIR regexes agree with the shared validation on typical values', () => {
    const cases: [keyof typeof FHIR_TEMPORAL_REGEX, string][] = [
      ['date', '1980'],
      ['date', '1980-13'],
      ['dateTime', '2024-05-06T07:08:09.5+14:00'],
      ['dateTime', '2024-05-06T07:08:09+14:30'],
      ['instant', '2024-05-06T07:08:09Z'],
      ['instant', '2024-05-06T07:08Z'],
    ];
    for (const [type, value] of cases)
      expect(new RegExp(`^(?:${FHIR_TEMPORAL_REGEX[type]})$`).test(value)).toBe(!temporalError(type, value));
  });

  it('reads the offset a value was written with', () => {
    expect(zoneOf('2024-05-06T07:08:09+05:30')).toBe('+05:30');
    expect(zoneOf('2024-05-06T07:08:09.1Z')).toBe('Z');
    expect(zoneOf('2024-05-06')).toBeUndefined();
    expect(zoneOf(undefined)).toBeUndefined();
  });

  it("gives the user's offset at that wall-clock time (daylight saving included)", () => {
    process.env.TZ = 'Asia/Kolkata';
    expect(localZone('2024-01-15T10:00:00')).toBe('+05:30');
    process.env.TZ = 'America/New_York';
    expect(localZone('2024-01-15T10:00:00')).toBe('-05:00');
    expect(localZone('2024-07-15T10:00:00')).toBe('-04:00');
    process.env.TZ = 'UTC';
    expect(localZone('2024-07-15T10:00:00')).toBe('Z');
  });

  it('completes typed text: seconds for a time, the kept or the user offset for a dateTime', () => {
    process.env.TZ = 'Asia/Kolkata';
    expect(completeTemporal('time', '14:30')).toBe('14:30:00');
    expect(completeTemporal('time', '14:30:15.25')).toBe('14:30:15.25');
    expect(completeTemporal('dateTime', '2024-05-06T07:08', '-03:00')).toBe('2024-05-06T07:08:00-03:00');
    expect(completeTemporal('dateTime', '2024-05-06T07:08:09')).toBe('2024-05-06T07:08:09+05:30');
    expect(completeTemporal('dateTime', ' 2024-05-06T07:08:09.123Z ', '-03:00')).toBe('2024-05-06T07:08:09.123Z');
    expect(completeTemporal('dateTime', '1980-04')).toBe('1980-04');
    expect(completeTemporal('instant', '2024-05-06T07:08', 'Z')).toBe('2024-05-06T07:08:00Z');
    // Not completable: kept as typed (then flagged), never dropped.
    expect(completeTemporal('dateTime', '2024-5-6 7:08')).toBe('2024-5-6 7:08');
  });

  it('shows the wall-clock part in the picker only when it is there', () => {
    expect(pickerValue('date', '1980-04-05')).toBe('1980-04-05');
    expect(pickerValue('date', '1980-04')).toBe('');
    expect(pickerValue('dateTime', '2024-05-06T07:08:09.123+05:30')).toBe('2024-05-06T07:08:09');
    expect(pickerValue('dateTime', '2024-05-06')).toBe('');
    expect(pickerValue('instant', 'garbage')).toBe('');
    expect(pickerValue('time', '14:30:15.5')).toBe('14:30:15');
  });

  it('a picked value keeps the offset the value had', () => {
    expect(fromPicker('dateTime', '2024-05-06T09:30', '+05:30')).toBe('2024-05-06T09:30:00+05:30');
    expect(fromPicker('instant', '2024-05-06T09:30:05', 'Z')).toBe('2024-05-06T09:30:05Z');
    expect(fromPicker('date', '2024-05-06', undefined)).toBe('2024-05-06');
    expect(fromPicker('time', '', undefined)).toBeUndefined();
  });

  it('describes precision and offset', () => {
    expect(describeTemporal('date', '1980')).toBe('Year only');
    expect(describeTemporal('dateTime', '1980-04')).toBe('Year and month');
    expect(describeTemporal('dateTime', '1980-04-05')).toBe('Date only, no time');
    expect(describeTemporal('dateTime', '2024-05-06T07:08:09+05:30')).toBe('Time at UTC+05:30');
    expect(describeTemporal('instant', '2024-05-06T07:08:09Z')).toBe('Time in UTC (Z)');
    expect(describeTemporal('date', '1980-04-05')).toBeUndefined();
    expect(describeTemporal('dateTime', 'nope')).toBeUndefined();
  });
});
