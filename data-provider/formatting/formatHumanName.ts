import type { HumanName } from '@medplum/fhirtypes';

/** "Given Family" from a HumanName: its text when present, else prefix, given, family and suffix. */
export function formatHumanName(
  name: HumanName | undefined,
  options: { prefix?: boolean; suffix?: boolean } = {},
): string {
  if (!name) return '';
  if (name.text && name.text.trim()) return name.text.trim();
  const parts = [
    ...(options.prefix ? (name.prefix ?? []) : []),
    ...(name.given ?? []),
    ...(name.family ? [name.family] : []),
    ...(options.suffix ? (name.suffix ?? []) : []),
  ];
  return parts
    .filter((part) => part.trim().length > 0)
    .join(' ')
    .trim();
}
