import { describe, expect, it } from 'vitest';
import { decodeBase64Text, inlineTextOf } from './attachmentText';

const base64 = (text: string, encoding: BufferEncoding = 'utf8') => Buffer.from(text, encoding).toString('base64');

describe('inline attachment text', () => {
  it('decodes UTF-8 text, not one character per byte', () => {
    const note = 'Temp 38.2 °C — patient’s fever resolved';
    expect(decodeBase64Text(base64(note), 'text/plain; charset=utf-8')).toBe(note);
    expect(decodeBase64Text(base64(note), 'text/plain')).toBe(note);
    expect(decodeBase64Text(base64('café', 'latin1'), 'text/plain; charset=ISO-8859-1')).toBe('café');
  });

  it('is undefined for data that is not base64, and for files that are not inline text', () => {
    expect(decodeBase64Text('not base64 at all!', 'text/plain')).toBeUndefined();
    expect(inlineTextOf({ contentType: 'application/pdf', data: 'JVBERi0=' })).toBeUndefined();
    expect(inlineTextOf({ contentType: 'text/plain', url: 'Binary/1' })).toBeUndefined();
    expect(inlineTextOf({ contentType: 'text/plain; charset=utf-8', data: base64('No complaints.') })).toBe(
      'No complaints.',
    );
  });
});
