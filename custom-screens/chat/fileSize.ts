const units = ['K', 'M', 'G', 'T', 'P'];

/** A byte count as people read it (app-spec §9): '512 B', '1.5 K', '12 M', '3.2 G', up to P. */
export function formatFileSize(bytes: number | undefined): string {
  if (bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  let value = bytes;
  let unit = -1;
  // Divide while the number as shown would reach 1024 (1023.7 K reads as 1 M, not 1024 K).
  while (unit < units.length - 1 && Number(value.toFixed(value < 10 ? 1 : 0)) >= 1024) {
    value /= 1024;
    unit++;
  }
  const digits = value < 10 ? 1 : 0;
  return `${value.toFixed(digits).replace(/\.0$/, '')} ${units[unit]}`;
}
