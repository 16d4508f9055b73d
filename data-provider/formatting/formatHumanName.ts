import type { HumanName } from '@medplum/fhirtypes';

export interface HumanNameFormatOptions {
  /** Include prefixes such as 'Dr.' (left out by default: lists and headers read better without them). */
  prefix?: boolean;
  /** Include suffixes such as 'PhD'. */
  suffix?: boolean;
  /** Append the name's use in brackets, e.g. 'Ada King [maiden]', where several names of one person are listed. */
  use?: boolean;
}

/** "Given Family" from a HumanName: its text when present, else prefix, given, family and suffix. */
export function formatHumanName(name: HumanName | undefined, options: HumanNameFormatOptions = {}): string {
  if (!name) return '';
  const formatted = name.text?.trim() || joinNameParts(name, options);
  if (options.use && name.use && formatted) return `${formatted} [${name.use}]`;
  return formatted;
}

function joinNameParts(name: HumanName, options: HumanNameFormatOptions): string {
  const parts = [
    ...(options.prefix ? (name.prefix ?? []) : []),
    ...(name.given ?? []),
    ...(name.family ? [name.family] : []),
    ...(options.suffix ? (name.suffix ?? []) : []),
  ];
  return parts
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .join(' ');
}
