import { describe, expect, it } from 'vitest';
import { uploadNoticeText, uploadPercent } from './uploadState';

describe('upload state', () => {
  it('turns progress into a bounded whole percentage', () => {
    expect(uploadPercent(0, 100)).toBe(0);
    expect(uploadPercent(333, 1000)).toBe(33);
    expect(uploadPercent(1000, 1000)).toBe(100);
    expect(uploadPercent(2000, 1000)).toBe(100);
    expect(uploadPercent(5, 0)).toBe(0);
    expect(uploadPercent(Number.NaN, 10)).toBe(0);
  });

  it('words each phase', () => {
    expect(uploadNoticeText({ phase: 'idle' })).toBe('');
    expect(uploadNoticeText({ phase: 'initializing', filename: 'a.pdf' })).toBe('Initializing upload of a.pdf...');
    expect(uploadNoticeText({ phase: 'uploading', filename: 'a.pdf', percent: 42 })).toBe('Uploading a.pdf: 42%');
    expect(uploadNoticeText({ phase: 'complete', filename: 'a.pdf' })).toBe('Upload complete: a.pdf');
    expect(uploadNoticeText({ phase: 'error', filename: 'a.pdf', message: 'Forbidden' })).toBe(
      'Upload error: Forbidden',
    );
  });
});
