import { describe, expect, it } from 'vitest';
import { formatFileSize } from './fileSize';

describe('formatFileSize', () => {
  it('shows bytes below a K', () => {
    expect(formatFileSize(0)).toBe('0 B');
    expect(formatFileSize(1023)).toBe('1023 B');
  });
  it('uses K, M, G, T and P', () => {
    expect(formatFileSize(1024)).toBe('1 K');
    expect(formatFileSize(1536)).toBe('1.5 K');
    expect(formatFileSize(12 * 1024 * 1024)).toBe('12 M');
    expect(formatFileSize(3.25 * 1024 ** 3)).toBe('3.3 G');
    expect(formatFileSize(2 * 1024 ** 4)).toBe('2 T');
    expect(formatFileSize(5 * 1024 ** 5)).toBe('5 P');
    expect(formatFileSize(2048 * 1024 ** 5)).toBe('2048 P');
  });
  it('never shows 1024 of a unit', () => {
    expect(formatFileSize(1024 * 1024 - 300)).toBe('1 M');
    expect(formatFileSize(1023.4 * 1024)).toBe('1023 K');
  });
  it('is empty for what is not a size', () => {
    expect(formatFileSize(undefined)).toBe('');
    expect(formatFileSize(-1)).toBe('');
    expect(formatFileSize(Number.NaN)).toBe('');
  });
});
