import type { Address } from '@medplum/fhirtypes';

export interface AddressFormatOptions {
  /** Append the address use in brackets, e.g. '… [work]'. */
  use?: boolean;
  /** Between lines, city, state and postal code; ', ' by default, '\n' for a multi-line label. */
  separator?: string;
}

/**
 * Lines, city, state and postal code of an address, in that order, blanks left out. The free
 * `text` is the fallback only: the structured parts are what the form edits, so they are what the
 * user expects to see.
 */
export function formatAddress(address: Address | undefined, options: AddressFormatOptions = {}): string {
  if (!address) return '';
  const parts = [...(address.line ?? []), address.city, address.state, address.postalCode]
    .map((part) => part?.trim())
    .filter((part): part is string => !!part);
  const formatted = parts.length > 0 ? parts.join(options.separator ?? ', ') : (address.text?.trim() ?? '');
  if (options.use && address.use && formatted) return `${formatted} [${address.use}]`;
  return formatted;
}
