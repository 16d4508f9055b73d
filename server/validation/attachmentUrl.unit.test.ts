import { describe, expect, it } from 'vitest';
import { attachmentUrlProblem, urlScheme } from './attachmentUrl';
import { validatePrimitives } from './primitiveValidator';

/** `expression → text` of each issue. */
function issuesOf(resource: Record<string, unknown>): string[] {
  return validatePrimitives(resource).map((issue) => `${issue.expression?.[0]} → ${issue.details?.text}`);
}

describe('urlScheme', () => {
  it('reads the scheme as a browser does', () => {
    expect(urlScheme('https://example.org/a.pdf')).toBe('https');
    expect(urlScheme('HTTP://example.org')).toBe('http');
    expect(urlScheme('urn:uuid:5b3f1a9e-2f59-4d8e-9a8c-0a1b2c3d4e5f')).toBe('urn');
    expect(urlScheme('javascript:alert(1)')).toBe('javascript');
    expect(urlScheme('JavaScript:alert(1)')).toBe('javascript');
    // Leading controls and spaces are dropped, tabs and newlines removed anywhere (WHATWG URL).
    expect(urlScheme(' \u0001javascript:alert(1)')).toBe('javascript');
    expect(urlScheme('java\tscr\nipt:alert(1)')).toBe('javascript');
    expect(urlScheme('data:text/html,<script>alert(1)</script>')).toBe('data');
  });

  it('finds no scheme in a relative reference', () => {
    expect(urlScheme('Binary/123')).toBeUndefined();
    expect(urlScheme('Binary/123/_history/2')).toBeUndefined();
    expect(urlScheme('Binary/a:b')).toBeUndefined();
    expect(urlScheme('//example.org/a.png')).toBeUndefined();
    expect(urlScheme('')).toBeUndefined();
  });
});

describe('attachmentUrlProblem', () => {
  it.each([
    'https://example.org/report.pdf',
    'http://example.org/report.pdf',
    'urn:uuid:5b3f1a9e-2f59-4d8e-9a8c-0a1b2c3d4e5f',
    'Binary/5b3f1a9e-2f59-4d8e-9a8c-0a1b2c3d4e5f',
    'Binary/abc/_history/2',
  ])('accepts %s', (url) => {
    expect(attachmentUrlProblem(url)).toBeUndefined();
  });

  it.each([
    ['javascript:alert(document.domain)', 'javascript'],
    ['data:text/html,<script>alert(1)</script>', 'data'],
    ['data:image/png;base64,iVBORw0KGgo=', 'data'],
    ['vbscript:msgbox(1)', 'vbscript'],
    ['file:///etc/passwd', 'file'],
    ['  java\tscript:alert(1)', 'javascript'],
  ])('refuses %s', (url, scheme) => {
    expect(attachmentUrlProblem(url)).toContain(`"${scheme}:" scheme`);
  });

  it('points data: at Attachment.data', () => {
    expect(attachmentUrlProblem('data:text/plain,hello')).toBe(
      'An Attachment url may not use the "data:" scheme: use http(s), urn: or a Binary reference (Binary/{id}); inline content goes in Attachment.data',
    );
  });
});

describe('Attachment.url in validation', () => {
  it('is refused wherever an Attachment is: datatypes, extensions, contained and bundled resources', () => {
    expect(
      issuesOf({
        resourceType: 'DocumentReference',
        status: 'current',
        content: [
          { attachment: { contentType: 'application/pdf', url: 'Binary/ok-1' } },
          { attachment: { contentType: 'text/html', url: 'javascript:alert(1)' } },
        ],
        extension: [{ url: 'https://e.org/a', valueAttachment: { url: 'data:text/html,<b>x</b>' } }],
        contained: [{ resourceType: 'Patient', id: 'p', photo: [{ url: 'vbscript:x' }] }],
      }),
    ).toEqual([
      'DocumentReference.content[1].attachment.url → An Attachment url may not use the "javascript:" scheme: use http(s), urn: or a Binary reference (Binary/{id})',
      'DocumentReference.extension[0].valueAttachment.url → An Attachment url may not use the "data:" scheme: use http(s), urn: or a Binary reference (Binary/{id}); inline content goes in Attachment.data',
      'DocumentReference.contained[0].photo[0].url → An Attachment url may not use the "vbscript:" scheme: use http(s), urn: or a Binary reference (Binary/{id})',
    ]);
    expect(
      issuesOf({
        resourceType: 'Bundle',
        type: 'collection',
        entry: [{ resource: { resourceType: 'Media', status: 'completed', content: { url: 'javascript:1' } } }],
      }),
    ).toEqual([
      'Bundle.entry[0].resource.content.url → An Attachment url may not use the "javascript:" scheme: use http(s), urn: or a Binary reference (Binary/{id})',
    ]);
  });

  it('leaves every other url alone (a Reference or an extension url is no Attachment)', () => {
    expect(
      issuesOf({
        resourceType: 'Communication',
        status: 'completed',
        payload: [{ contentAttachment: { url: 'https://example.org/x.png', contentType: 'image/png' } }],
        extension: [{ url: 'urn:example:ext', valueUri: 'mailto:someone@example.org' }],
      }),
    ).toEqual([]);
  });
});

describe('long base64Binary values', () => {
  const group = 'QUJD';

  it('validate without overflowing (8 MB: the former regular expression threw "Maximum call stack size exceeded")', () => {
    const data = group.repeat(2 * 1024 * 1024);
    expect(issuesOf({ resourceType: 'Binary', contentType: 'text/plain', data })).toEqual([]);
    expect(issuesOf({ resourceType: 'Binary', contentType: 'text/plain', data: `${data.slice(0, -1)}!` })).toEqual([
      'Binary.data → Invalid base64Binary format',
    ]);
    // Padding is only for the last group, however far from the start the one before it is.
    expect(issuesOf({ resourceType: 'Binary', contentType: 'text/plain', data: `${data}QQ==${group}` })).toEqual([
      'Binary.data → Invalid base64Binary format',
    ]);
  });
});
