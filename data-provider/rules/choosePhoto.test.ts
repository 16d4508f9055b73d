import { describe, expect, it } from 'vitest';
import { choosePhoto, isImageAttachment } from './choosePhoto';

describe('choosePhoto', () => {
  it('picks the first attachment whose content type begins with image/', () => {
    const photo = [
      { contentType: 'application/pdf', url: 'a.pdf' },
      { contentType: 'image/png', url: 'b.png' },
      { contentType: 'image/jpeg', url: 'c.jpg' },
    ];
    expect(choosePhoto({ resourceType: 'Patient', photo })).toEqual({ contentType: 'image/png', url: 'b.png' });
  });
  it('reads a single photo too', () => {
    expect(choosePhoto({ resourceType: 'Bot', photo: { contentType: 'image/svg+xml', url: 'x' } })).toEqual({
      contentType: 'image/svg+xml',
      url: 'x',
    });
  });
  it('finds nothing without an image', () => {
    expect(choosePhoto({ resourceType: 'Patient', photo: [{ url: 'no-type' }, { contentType: 'video/mp4' }] })).toBe(
      undefined,
    );
    expect(choosePhoto({ resourceType: 'Patient' })).toBeUndefined();
    expect(choosePhoto({ resourceType: 'Observation', status: 'final', code: {} })).toBeUndefined();
    expect(choosePhoto(undefined)).toBeUndefined();
  });
});

describe('isImageAttachment', () => {
  it('checks the start of the content type, in any case', () => {
    expect(isImageAttachment({ contentType: 'IMAGE/PNG' })).toBe(true);
    expect(isImageAttachment({ contentType: 'application/image' })).toBe(false);
    expect(isImageAttachment({})).toBe(false);
  });
});
