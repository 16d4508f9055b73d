/** A steady colour per patient for the header band, so a clinician recognises a chart at a glance. */
export function bandColor(seed: string): string {
  return `hsl(${hueOf(seed)} 55% 45%)`;
}

/** The same hue, dark enough that white initials keep WCAG AA contrast on any hue. */
export function avatarColor(seed: string): string {
  return `hsl(${hueOf(seed)} 60% 28%)`;
}

function hueOf(seed: string): number {
  let hash = 0;
  for (const char of seed) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return Math.abs(hash) % 360;
}

export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase())
    .filter((c) => /\p{L}/u.test(c))
    .slice(0, 2)
    .join('');
}
