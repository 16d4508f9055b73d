import type { MedicationRequest } from '@medplum/fhirtypes';
import type { ReferenceNames } from '../../referenceNames';
import { medicationNameOf } from './medicationRules';

/**
 * Which medication each order is of: a key that orders of the same medication share, undefined
 * for an order with neither a code nor a name (it is never taken for another).
 *
 * A code decides between coded orders, whatever they are called: two codes are two medications
 * even under one name. An order without a code (typed as text, or pointing at a Medication
 * named through `names`) is of the coded medication whose name it carries — the code's display or
 * the concept's text, case and spacing apart — so a typed "Lisinopril 10 MG Oral Tablet" and the
 * coded one are one medication. When that name belongs to no code, or to several (which one is
 * meant cannot be told), the name alone is its key.
 */
export function medicationKeysOf(orders: readonly MedicationRequest[], names?: ReferenceNames): (string | undefined)[] {
  const codesByName = new Map<string, Set<string>>();
  for (const order of orders) {
    const code = codeKeyOf(order);
    if (!code) continue;
    for (const name of codedNamesOf(order)) {
      const codes = codesByName.get(name) ?? new Set<string>();
      codes.add(code);
      codesByName.set(name, codes);
    }
  }
  return orders.map((order) => {
    const code = codeKeyOf(order);
    if (code) return code;
    const name = comparableName(medicationNameOf(order, names));
    if (!name) return undefined;
    const codes = codesByName.get(name);
    return codes?.size === 1 ? [...codes][0] : `name ${name}`;
  });
}

/** The coding that identifies the medication: the first with both a system and a code. */
function keyCodingOf(order: MedicationRequest) {
  return order.medicationCodeableConcept?.coding?.find((coding) => coding.system && coding.code);
}

function codeKeyOf(order: MedicationRequest): string | undefined {
  const coding = keyCodingOf(order);
  return coding ? `code ${coding.system}|${coding.code}` : undefined;
}

/**
 * The names a coded order goes by: its identifying coding's display and the concept's text. Other
 * codings' displays are left out: another system may name only the ingredient ("lisinopril"), and
 * that is no name of one product.
 */
function codedNamesOf(order: MedicationRequest): string[] {
  return [keyCodingOf(order)?.display, order.medicationCodeableConcept?.text]
    .map((name) => comparableName(name ?? ''))
    .filter(Boolean);
}

/** A name as two spellings of it compare: same letters, whatever the case and the spacing. */
function comparableName(name: string): string {
  return name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}
