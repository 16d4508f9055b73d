import type { Address } from '@medplum/fhirtypes';

/** Choices of the address form's 'use' field (spec §2). */
export const ADDRESS_USES = ['home', 'work', 'temp', 'old', 'billing'] as const satisfies readonly NonNullable<
  Address['use']
>[];

/** Choices of the address form's 'type' field (spec §2). */
export const ADDRESS_TYPES = ['postal', 'physical', 'both'] as const satisfies readonly NonNullable<Address['type']>[];

/**
 * The address form's fields in screen order (spec §2). The form has exactly two line inputs, which
 * map to Address.line[0] and Address.line[1].
 */
export const ADDRESS_FORM_FIELDS = ['use', 'type', 'line1', 'line2', 'city', 'state', 'postalCode'] as const;
export type AddressFormField = (typeof ADDRESS_FORM_FIELDS)[number];

/** Number of street-line inputs on the address form. */
export const ADDRESS_FORM_LINE_COUNT = 2;
