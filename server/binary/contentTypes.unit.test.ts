import { describe, expect, it } from 'vitest';
import { isSingleMediaType, servedContentType } from './contentTypes';

describe('Binary content types', () => {
  it('accepts one media type with parameters, nothing a browser could read as two or a header could not carry', () => {
    for (const type of ['image/png', 'text/plain; charset=utf-8', 'multipart/mixed; boundary="a b"', 'image/svg+xml']) {
      expect(isSingleMediaType(type), type).toBe(true);
    }
    for (const type of [
      'image/png, text/html',
      'text/html\nX-Injected: 1',
      'text/plain;',
      'image',
      '',
      'a/b; c="d"e',
    ]) {
      expect(isSingleMediaType(type), type).toBe(false);
    }
  });

  it('serves a stored type that is not one media type as a download of octet-stream, never inline', () => {
    expect(servedContentType('image/png, text/html')).toEqual({
      contentType: 'application/octet-stream',
      inline: false,
    });
    expect(servedContentType('text/html\r\nX: 1')).toEqual({ contentType: 'application/octet-stream', inline: false });
    expect(servedContentType(undefined)).toEqual({ contentType: 'application/octet-stream', inline: false });
    expect(servedContentType('image/PNG')).toEqual({ contentType: 'image/PNG', inline: true });
    expect(servedContentType('text/plain; charset=utf-8').inline).toBe(true);
    expect(servedContentType('image/pngx').inline).toBe(false);
    expect(servedContentType('text/html').inline).toBe(false);
    expect(servedContentType('image/svg+xml').inline).toBe(false);
  });
});
