import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Repository } from '../fhir/repository';
import { normalizeBinaryUrls, presentBinaryUrls, referencedBinaryIds } from './attachmentUrls';
import { readableBinaryVersions } from './readableBinaries';
import type { UrlSigner } from './signedUrls';

function isFhirRequest(request: FastifyRequest): boolean {
  return request.url.startsWith('/fhir/');
}

/**
 * Adds, on `app` (the root, so they cover every FHIR route whoever registered it), the two hooks
 * that keep signed Binary URLs a presentation detail: incoming JSON bodies have signed URLs turned
 * back into `Binary/{id}` before any route sees them, and every FHIR JSON answer (read, search,
 * history, Bundles, operations) gets signed URLs for its Attachments and Binaries just before
 * serialization — for the Binaries the caller may read only, checked once per answer for all of
 * them (anyone can write `Binary/<any id>` into an Attachment, or a Binary with any id into a
 * stored Bundle; the signature must not turn that into a read).
 */
export function addAttachmentUrlHooks(app: FastifyInstance, signer: UrlSigner, repository: Repository): void {
  const fhirBase = `${signer.baseUrl}fhir/R4/`;
  app.addHook('preValidation', async (request) => {
    if (!isFhirRequest(request) || request.body === null || typeof request.body !== 'object') return;
    request.body = normalizeBinaryUrls(request.body, signer.baseUrl);
  });
  app.addHook('preSerialization', async (request, _reply, payload) => {
    if (!isFhirRequest(request) || payload === null || typeof payload !== 'object') return payload;
    const ids = referencedBinaryIds(payload, fhirBase);
    const readable = await readableBinaryVersions(repository, request.caller?.ctx.access, ids);
    return presentBinaryUrls(payload, fhirBase, (id, versionId) => signer.sign(id, versionId), readable);
  });
}
