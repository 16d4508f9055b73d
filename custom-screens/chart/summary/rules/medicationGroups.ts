import type { MedicationRequest } from '@medplum/fhirtypes';
import {
  CURRENT_MEDICATION_STATUSES,
  PAST_MEDICATIONS_LISTED_UP_TO,
} from '../../../../config/clinical/medicationStatus';
import type { ReferenceNames } from '../../referenceNames';
import { currentFirst } from './currentFirst';
import { duplicateOrders } from './medicationChecks';
import { medicationKeysOf } from './medicationIdentity';

/** One medication of the list: the orders of it, as one row. */
export interface MedicationGroup {
  /** The row's order (shown and edited): a current one first, else the newest. */
  order: MedicationRequest;
  /** The other orders of the same medication, current first, then newest first. */
  others: MedicationRequest[];
  /** Whether the row's order is still being taken (an active, on-hold or draft order). */
  current: boolean;
  /**
   * How many active orders of this medication there are (here or in another row: a typed name of
   * the same product). Two or more are a finding, not a repeat: the row says "2 active orders"
   * in the warning colour, and its note does not count the other active one as an earlier order.
   */
  activeOrders: number;
}

/** The summary's medication list: current medications, then past ones (folded when there are many). */
export interface MedicationList {
  current: MedicationGroup[];
  past: MedicationGroup[];
  /** More past medications than the sidebar lists at once: they wait behind a toggle. */
  foldPast: boolean;
}

const isCurrent = (order: MedicationRequest) => CURRENT_MEDICATION_STATUSES.includes(order.status);

/**
 * Orders grouped into medications. Imported records (Synthea) order the same medication again every
 * year, and a clinician's typed order of a drug sits beside the coded one; a clinician reads what the
 * patient takes, not twenty identical stopped refills. Which orders are of one medication:
 * `medicationKeysOf`.
 */
export function medicationListOf(orders: readonly MedicationRequest[], names?: ReferenceNames): MedicationList {
  // Sorted first, so a group's first order is its row and groups come in their rows' order.
  const sorted = currentFirst(orders, isCurrent, (order) => order.authoredOn);
  const keys = medicationKeysOf(sorted, names);
  const groups = new Map<string, MedicationRequest[]>();
  sorted.forEach((order, index) => {
    const key = keys[index] ?? `order ${index}`;
    const group = groups.get(key);
    if (group) group.push(order);
    else groups.set(key, [order]);
  });
  // How many active orders the medication has, by the Add medication check's own rule (the same
  // code, or the same name typed), so that the list and the check agree.
  const activeOrdersOf = (orders: readonly MedicationRequest[]) => {
    const active = orders.find((order) => order.status === 'active');
    return active ? 1 + duplicateOrders(active, sorted, names).length : 0;
  };
  const all = [...groups.values()].map(([order, ...others]) => ({
    order: order as MedicationRequest,
    others,
    current: isCurrent(order as MedicationRequest),
    activeOrders: activeOrdersOf([order as MedicationRequest, ...others]),
  }));
  const past = all.filter((group) => !group.current);
  return {
    current: all.filter((group) => group.current),
    past,
    foldPast: past.length > PAST_MEDICATIONS_LISTED_UP_TO,
  };
}

/**
 * What the row says of the medication's other orders: "19 earlier orders" when none is newer than
 * the row's, else "2 other orders" (an active order can be older than a stopped one); '' for none.
 */
export function otherOrdersNote(group: MedicationGroup): string {
  // Concurrent active orders are said apart ("2 active orders"), not folded into "1 earlier order".
  const others = group.activeOrders > 1 ? group.others.filter((other) => other.status !== 'active') : group.others;
  const count = others.length;
  if (count === 0) return '';
  const shown = instant(group.order.authoredOn);
  const earlier = others.every((other) => instant(other.authoredOn) <= shown);
  return `${count} ${earlier ? 'earlier' : 'other'} order${count === 1 ? '' : 's'}`;
}

/** A dateTime to compare; an undated order is never known to be earlier (NaN compares false). */
function instant(value: string | undefined): number {
  return value ? Date.parse(value) : NaN;
}
