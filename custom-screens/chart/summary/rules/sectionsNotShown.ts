/** The summary's sections by the search each is drawn from (the three social and vital ones share it). */
const SECTIONS_BY_PART = {
  allergies: ['Allergies'],
  problems: ['Problem List'],
  medications: ['Medications'],
  observations: ['Sexual Orientation', 'Smoking Status', 'Vitals'],
} as const;

type SectionPart = keyof typeof SECTIONS_BY_PART;

/** Titles of the sections left out, in the summary's order: those whose search was not asked for. */
export function sectionsNotShown(data: Record<SectionPart, unknown>): string[] {
  return (Object.keys(SECTIONS_BY_PART) as SectionPart[])
    .filter((part) => data[part] === undefined)
    .flatMap((part) => SECTIONS_BY_PART[part]);
}
