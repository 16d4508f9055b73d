import { describe, expect, it } from 'vitest';
import type { MedicationRequest } from '@medplum/fhirtypes';
import { PAST_MEDICATIONS_LISTED_UP_TO } from '../../../../config/clinical/medicationStatus';
import { medicationListOf, otherOrdersNote } from './medicationGroups';

const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';

// Orders as Synthea writes them (fields from the Synthea R4 samples: synthetic, Apache-2.0).
function order(
  id: string,
  status: MedicationRequest['status'],
  authoredOn: string | undefined,
  medication: Partial<MedicationRequest>,
): MedicationRequest {
  return {
    resourceType: 'MedicationRequest',
    id,
    status,
    intent: 'order',
    subject: { reference: 'Patient/p1' },
    authoredOn,
    ...medication,
  };
}
const simvastatin = {
  medicationCodeableConcept: {
    coding: [{ system: RXNORM, code: '314231', display: 'Simvastatin 10 MG Oral Tablet' }],
    text: 'Simvastatin 10 MG Oral Tablet',
  },
};
const ids = (groups: { order: MedicationRequest; others: MedicationRequest[] }[]) =>
  groups.map((g) => [g.order.id, ...g.others.map((o) => o.id)]);

describe('medication groups', () => {
  it('lists yearly refills of one coded medication once, the active order as its row', () => {
    const refills = [2019, 2020, 2021, 2022].map((year) =>
      order(`s${year}`, 'stopped', `${year}-03-01T10:00:00+00:00`, simvastatin),
    );
    const list = medicationListOf([...refills, order('s2023', 'active', '2023-03-01T10:00:00+00:00', simvastatin)]);
    expect(ids(list.current)).toEqual([['s2023', 's2022', 's2021', 's2020', 's2019']]);
    expect(list.past).toEqual([]);
    expect(otherOrdersNote(list.current[0]!)).toBe('4 earlier orders');
  });

  it('groups by code whatever the display, and by name (case and spacing apart) without a code', () => {
    const renamed = {
      medicationCodeableConcept: { coding: [{ system: RXNORM, code: '314231', display: 'simvastatin 10mg' }] },
    };
    const list = medicationListOf([
      order('a', 'stopped', '2020-01-01', simvastatin),
      order('b', 'stopped', '2021-01-01', renamed),
      order('c', 'completed', '2019-01-01', { medicationCodeableConcept: { text: 'Aspirin  81 mg' } }),
      order('d', 'stopped', '2018-01-01', { medicationCodeableConcept: { text: 'aspirin 81 MG' } }),
      // Another code, though the same name: another medication.
      order('e', 'stopped', '2017-01-01', {
        medicationCodeableConcept: {
          coding: [{ system: RXNORM, code: '1', display: 'Simvastatin 10 MG Oral Tablet' }],
        },
      }),
    ]);
    expect(ids(list.past)).toEqual([['b', 'a'], ['c', 'd'], ['e']]);
  });

  it('takes a typed order for the coded medication whose display or text it names, case and spacing apart', () => {
    const lisinopril = {
      medicationCodeableConcept: {
        coding: [{ system: RXNORM, code: '314076', display: 'Lisinopril 10 MG Oral Tablet' }],
      },
    };
    const list = medicationListOf([
      order('coded', 'active', '2023-01-01', lisinopril),
      order('typed', 'stopped', '2022-01-01', { medicationCodeableConcept: { text: 'Lisinopril 10 MG Oral Tablet' } }),
      order('retyped', 'stopped', '2021-01-01', {
        medicationCodeableConcept: { text: '  lisinopril  10 mg\toral tablet ' },
      }),
      // Named by the concept's text rather than the coding's display.
      order('texted', 'stopped', '2020-01-01', {
        medicationCodeableConcept: {
          coding: [{ system: RXNORM, code: '197361', display: 'amlodipine 5 MG Oral Tablet' }],
          text: 'Norvasc 5 mg',
        },
      }),
      order('brand', 'stopped', '2019-01-01', { medicationCodeableConcept: { text: 'NORVASC 5 MG' } }),
    ]);
    expect(ids(list.current)).toEqual([['coded', 'typed', 'retyped']]);
    expect(ids(list.past)).toEqual([['texted', 'brand']]);
  });

  it('takes an order naming its Medication through the included names for the coded one of that name', () => {
    const list = medicationListOf(
      [
        order('coded', 'stopped', '2020-01-01', simvastatin),
        order('referenced', 'stopped', '2019-01-01', { medicationReference: { reference: 'Medication/m1' } }),
      ],
      new Map([['Medication/m1', 'simvastatin 10 mg oral tablet']]),
    );
    expect(ids(list.past)).toEqual([['coded', 'referenced']]);
  });

  it('keeps apart drugs whose names only look alike, and a name two codes share', () => {
    const coded = (id: string, code: string, display: string) =>
      order(id, 'stopped', '2020-01-01', {
        medicationCodeableConcept: { coding: [{ system: RXNORM, code, display }] },
      });
    const typed = (id: string, text: string) =>
      order(id, 'stopped', '2019-01-01', { medicationCodeableConcept: { text } });
    const list = medicationListOf([
      coded('l10', '314076', 'Lisinopril 10 MG Oral Tablet'),
      typed('l20', 'Lisinopril 20 MG Oral Tablet'),
      typed('l10er', 'Lisinopril 10 MG Oral Tablet Extended Release'),
      typed('lis', 'Lisinopril'),
      coded('met', '860975', '24 HR Metformin hydrochloride 500 MG Extended Release Oral Tablet'),
      typed('met-ir', 'Metformin hydrochloride 500 MG Oral Tablet'),
      // One name, two codes: which one a typed order means cannot be told, so it stands alone.
      coded('a1', '1', 'Aspirin 81 MG'),
      coded('a2', '2', 'aspirin 81 mg'),
      typed('a?', 'Aspirin 81 MG'),
    ]);
    expect(ids(list.past)).toEqual([['l10'], ['met'], ['a1'], ['a2'], ['l20'], ['l10er'], ['lis'], ['met-ir'], ['a?']]);
  });

  it("does not take a typed ingredient for a coded product through another coding's display", () => {
    const list = medicationListOf([
      order('product', 'stopped', '2020-01-01', {
        medicationCodeableConcept: {
          coding: [
            { system: RXNORM, code: '314076', display: 'Lisinopril 10 MG Oral Tablet' },
            { system: 'http://www.whocc.no/atc', code: 'C09AA03', display: 'lisinopril' },
          ],
        },
      }),
      order('ingredient', 'stopped', '2019-01-01', { medicationCodeableConcept: { text: 'Lisinopril' } }),
    ]);
    expect(ids(list.past)).toEqual([['product'], ['ingredient']]);
  });

  it('names an order that points at a Medication through the included names', () => {
    const names = new Map([
      ['Medication/m1', 'Metformin 500 MG'],
      ['Medication/m2', 'metformin 500 mg'],
    ]);
    const list = medicationListOf(
      [
        order('r1', 'completed', '2015-05-05', { medicationReference: { reference: 'Medication/m1' } }),
        order('r2', 'on-hold', '2014-05-05', { medicationReference: { reference: 'Medication/m2' } }),
        order('r3', 'stopped', '2016-05-05', { medicationReference: { reference: 'Medication/unknown' } }),
        order('r4', 'stopped', '2016-06-05', { medicationReference: { reference: 'Medication/unknown2' } }),
      ],
      names,
    );
    // The on-hold order is the row though older; unnamed orders are never taken for one another.
    expect(ids(list.current)).toEqual([['r2', 'r1']]);
    expect(ids(list.past)).toEqual([['r4'], ['r3']]);
    expect(otherOrdersNote(list.current[0]!)).toBe('1 other order');
    expect(otherOrdersNote(list.past[0]!)).toBe('');
  });

  it('puts undated orders last and never calls them earlier', () => {
    const list = medicationListOf([
      order('u', 'stopped', undefined, simvastatin),
      order('n', 'stopped', '2001-01-01', simvastatin),
    ]);
    expect(ids(list.past)).toEqual([['n', 'u']]);
    expect(otherOrdersNote(list.past[0]!)).toBe('1 other order');
    const undated = medicationListOf([
      order('x', 'stopped', undefined, simvastatin),
      order('y', 'stopped', undefined, simvastatin),
    ]);
    expect(ids(undated.past)).toEqual([['x', 'y']]);
    expect(otherOrdersNote(undated.past[0]!)).toBe('1 other order');
  });

  it('folds past medications only when there are more than the sidebar lists', () => {
    const past = (count: number) =>
      Array.from({ length: count }, (_, i) =>
        order(`p${i}`, 'stopped', '2010-01-01', { medicationCodeableConcept: { text: `Drug ${i}` } }),
      );
    const current = order('now', 'draft', '2024-01-01', { medicationCodeableConcept: { text: 'Lisinopril 10 mg' } });
    expect(medicationListOf([current, ...past(PAST_MEDICATIONS_LISTED_UP_TO)]).foldPast).toBe(false);
    const many = medicationListOf([current, ...past(PAST_MEDICATIONS_LISTED_UP_TO + 1)]);
    expect(many.foldPast).toBe(true);
    expect(many.current.map((g) => g.order.id)).toEqual(['now']);
    expect(many.past).toHaveLength(PAST_MEDICATIONS_LISTED_UP_TO + 1);
  });

  it('does not fold a concurrent active order into "earlier orders": the row counts the active ones apart', () => {
    const list = medicationListOf([
      order('s2020', 'stopped', '2020-03-01', simvastatin),
      order('a1', 'active', '2026-11-03T11:00:00Z', simvastatin),
      order('a2', 'active', '2026-11-29T08:00:00Z', simvastatin),
    ]);
    expect(ids(list.current)).toEqual([['a2', 'a1', 's2020']]);
    expect(list.current[0]?.activeOrders).toBe(2);
    // The stopped order is an earlier one; the other active order is not "earlier".
    expect(otherOrdersNote(list.current[0]!)).toBe('1 earlier order');
    const two = medicationListOf([
      order('a1', 'active', '2026-11-03T11:00:00Z', simvastatin),
      order('a2', 'active', '2026-11-29T08:00:00Z', simvastatin),
    ]);
    expect(two.current[0]?.activeOrders).toBe(2);
    expect(otherOrdersNote(two.current[0]!)).toBe('');
  });

  it('counts a typed order of the same product as a concurrent active order too (the check’s own rule)', () => {
    const list = medicationListOf([
      order('coded', 'active', '2026-11-03', simvastatin),
      order('typed', 'active', '2026-11-29', { medicationCodeableConcept: { text: 'Simvastatin 10 MG' } }),
    ]);
    expect(list.current.map((g) => [g.order.id, g.activeOrders])).toEqual([
      ['typed', 2],
      ['coded', 2],
    ]);
    const single = medicationListOf([order('only', 'active', '2026-11-03', simvastatin)]);
    expect(single.current[0]?.activeOrders).toBe(1);
  });
});
