import { describe, expect, it } from 'vitest';
import { normalizeBinaryUrls, presentBinaryUrls, referencedBinaryIds } from './attachmentUrls';
import {
  binaryIdOfStorageUrl,
  checkStorageSignature,
  expiryFor,
  signedUrlLifetimeSeconds,
  signedUrlWindowSeconds,
  signStorageUrl,
  UrlSigner,
} from './signedUrls';

const key = Buffer.alloc(32, 7);
const base = 'https://ehr.example.org/';
const fhirBase = `${base}fhir/R4/`;
const t0 = Date.UTC(2026, 0, 1, 12, 0, 0);

function parts(url: string) {
  const parsed = new URL(url);
  return { expires: parsed.searchParams.get('Expires'), signature: parsed.searchParams.get('Signature') };
}

describe('signed storage URLs', () => {
  it('are valid until they expire, at least the lifetime ahead, on a window boundary', () => {
    const url = signStorageUrl(key, base, 'b1', 'v1', t0);
    expect(url.startsWith(`${base}storage/b1/v1?Expires=`)).toBe(true);
    const { expires, signature } = parts(url);
    const expiresMs = Number(expires) * 1000;
    expect(expiresMs).toBeGreaterThanOrEqual(t0 + signedUrlLifetimeSeconds * 1000);
    expect(expiresMs).toBeLessThanOrEqual(t0 + (signedUrlLifetimeSeconds + signedUrlWindowSeconds) * 1000);
    expect(Number(expires) % signedUrlWindowSeconds).toBe(0);
    expect(checkStorageSignature(key, 'b1', 'v1', expires, signature, t0)).toBe('valid');
    expect(checkStorageSignature(key, 'b1', 'v1', expires, signature, expiresMs - 1)).toBe('valid');
    expect(checkStorageSignature(key, 'b1', 'v1', expires, signature, expiresMs)).toBe('expired');
  });

  it('keeps one URL within a window, so browsers can cache it', () => {
    const windowStart = Math.ceil(t0 / 1000 / signedUrlWindowSeconds) * signedUrlWindowSeconds * 1000;
    expect(expiryFor(windowStart + 1000)).toBe(expiryFor(windowStart + 60_000));
    expect(signStorageUrl(key, base, 'b1', 'v1', windowStart + 1000)).toBe(
      signStorageUrl(key, base, 'b1', 'v1', windowStart + 60_000),
    );
  });

  it('refuses tampering: another id or version, another expiry, another key, a changed or missing signature', () => {
    const { expires, signature } = parts(signStorageUrl(key, base, 'b1', 'v1', t0));
    expect(checkStorageSignature(key, 'b2', 'v1', expires, signature, t0)).toBe('invalid');
    // A link to one version opens no other version of the same Binary (one written later, say).
    expect(checkStorageSignature(key, 'b1', 'v2', expires, signature, t0)).toBe('invalid');
    expect(checkStorageSignature(key, 'b1', 'v1', String(Number(expires) + 300), signature, t0)).toBe('invalid');
    expect(checkStorageSignature(Buffer.alloc(32, 8), 'b1', 'v1', expires, signature, t0)).toBe('invalid');
    expect(checkStorageSignature(key, 'b1', 'v1', expires, `${signature}x`, t0)).toBe('invalid');
    expect(checkStorageSignature(key, 'b1', 'v1', expires, undefined, t0)).toBe('invalid');
    expect(checkStorageSignature(key, 'b1', 'v1', 'soon', signature, t0)).toBe('invalid');
    expect(checkStorageSignature(key, '../etc', 'v1', expires, signature, t0)).toBe('invalid');
    expect(checkStorageSignature(key, 'b1', '..', expires, signature, t0)).toBe('invalid');
  });

  it('an UrlSigner follows its clock', () => {
    let now = t0;
    const signer = new UrlSigner(key, base, () => now);
    const { expires, signature } = parts(signer.sign('b1', 'v1'));
    expect(signer.check('b1', 'v1', expires, signature)).toBe('valid');
    now = t0 + 2 * 60 * 60 * 1000;
    expect(signer.check('b1', 'v1', expires, signature)).toBe('expired');
  });

  it('finds the Binary id of this server’s storage URLs only', () => {
    expect(binaryIdOfStorageUrl(base, `${base}storage/abc-1?Expires=1&Signature=x`)).toBe('abc-1');
    expect(binaryIdOfStorageUrl(base, `${base}storage/abc-1/v1?Expires=1&Signature=x`)).toBe('abc-1');
    // A malformed escape is no URL of ours (and no 500 on the write that carries it).
    expect(binaryIdOfStorageUrl(base, `${base}storage/%E0%A4%A`)).toBeUndefined();
    expect(binaryIdOfStorageUrl(base, 'https://elsewhere.example/storage/abc-1?Expires=1')).toBeUndefined();
    expect(binaryIdOfStorageUrl(base, `${base}storage/a%2Fb`)).toBeUndefined();
  });
});

describe('attachment URLs in answers and writes', () => {
  const sign = (id: string, versionId: string) => `${base}storage/${id}/${versionId}?signed`;

  it('signs Binary URLs anywhere in a resource or Bundle, and gives Binaries their own url', () => {
    const bundle = {
      resourceType: 'Bundle',
      link: [{ relation: 'self', url: `${fhirBase}DocumentReference` }],
      entry: [
        {
          resource: {
            resourceType: 'DocumentReference',
            content: [
              { attachment: { url: 'Binary/b1' } },
              { attachment: { url: `${fhirBase}Binary/b2` } },
              { attachment: { url: 'Binary/not-readable' } },
            ],
            extension: [{ url: 'https://example.org/ext', valueString: 'Binary/b9' }],
          },
        },
        { resource: { resourceType: 'Binary', id: 'b3', meta: { versionId: 'v3' }, contentType: 'text/plain' } },
        { resource: { resourceType: 'Binary', id: 'b3', meta: { versionId: 'v3-old' }, contentType: 'text/plain' } },
        { resource: { resourceType: 'Patient', photo: [{ url: 'https://example.org/face.png' }] } },
        // A Binary the answer carries (a stored Bundle's entry, say) but the caller cannot read.
        {
          resource: {
            resourceType: 'Bundle',
            type: 'collection',
            entry: [{ resource: { resourceType: 'Binary', id: 'b4', contentType: 'text/plain' } }],
          },
        },
      ],
    };
    const readable = new Map([
      ['b1', 'v1'],
      ['b2', 'v2'],
      ['b3', 'v3'],
    ]);
    expect(referencedBinaryIds(bundle, fhirBase).sort()).toEqual(['b1', 'b2', 'b3', 'b4', 'not-readable']);
    const presented = presentBinaryUrls(bundle, fhirBase, sign, readable);
    const doc = presented.entry[0].resource as {
      content: { attachment: { url: string } }[];
      extension: { url: string; valueString: string }[];
    };
    // Attachments name the current version.
    expect(doc.content[0].attachment.url).toBe(sign('b1', 'v1'));
    expect(doc.content[1].attachment.url).toBe(sign('b2', 'v2'));
    // Not among the readable ids: left as written, never signed.
    expect(doc.content[2].attachment.url).toBe('Binary/not-readable');
    expect(doc.extension[0]).toEqual(bundle.entry[0].resource.extension?.[0]);
    // A Binary resource of the current version is signed; an older version (a history entry) is not.
    expect((presented.entry[1].resource as { url?: string }).url).toBe(sign('b3', 'v3'));
    expect(presented.entry[2]).toBe(bundle.entry[2]);
    expect(presented.entry[3]).toBe(bundle.entry[3]); // untouched objects are shared, not copied
    // Not readable: no url, whatever Bundle it sits in.
    expect(presented.entry[4]).toBe(bundle.entry[4]);
    expect(presentBinaryUrls(bundle, fhirBase, sign, new Map())).toBe(bundle);
    expect(presented.link).toBe(bundle.link);
    // The input is not changed (answers may share objects with caches).
    expect(bundle.entry[0].resource.content?.[0].attachment.url).toBe('Binary/b1');
  });

  it('turns signed URLs of this server back into Binary/{id} on write, and nothing else', () => {
    const incoming = {
      resourceType: 'Media',
      content: { url: `${base}storage/b1/v1?Expires=1&Signature=abc` },
      note: [{ text: `${base}storage/b1` }],
      identifier: [{ system: 'urn:x', value: 'y' }],
    };
    const stored = normalizeBinaryUrls(incoming, base);
    expect(stored.content.url).toBe('Binary/b1');
    expect(stored.note).toBe(incoming.note);
    const patch = [
      { op: 'replace', path: '/content/url', value: `${base}storage/b2?Expires=1&Signature=abc` },
      { op: 'replace', path: '/status', value: `${base}storage/b2` },
    ];
    expect(normalizeBinaryUrls(patch, base)).toEqual([
      { op: 'replace', path: '/content/url', value: 'Binary/b2' },
      patch[1],
    ]);
    expect(normalizeBinaryUrls({ content: { url: 'https://elsewhere.example/storage/b1' } }, base).content.url).toBe(
      'https://elsewhere.example/storage/b1',
    );
  });
});
