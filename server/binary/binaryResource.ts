import type { Binary, Meta, Reference } from '@medplum/fhirtypes';
import { errors } from '../fhir/fhirError';
import type { RepositorySession, RequestContext } from '../fhir/repository';
import type { BinaryContent, BinaryStorage, StagedContent } from './binaryStorage';

/** Where a Binary's original file name is kept (Binary is not a DomainResource: no extensions of its own). */
export const filenameExtensionUrl = 'https://hearth-emr.org/fhir/StructureDefinition/binary-filename';

export interface BinaryDetails {
  contentType: string;
  /** The resource whose access rules the Binary follows (`X-Security-Context`). */
  securityContext?: Reference;
  /** The uploaded file's name (`?_filename=`), used in Content-Disposition when it is downloaded. */
  filename?: string;
  /** For PUT: the id to write (update, or create with this id). */
  id?: string;
  /** Meta of the incoming resource (FHIR JSON uploads), kept as written. */
  meta?: Meta;
}

/** The Binary resource as stored: metadata only, the content lives in BinaryStorage. */
export function binaryResource(details: BinaryDetails): Binary {
  const meta: Meta | undefined = details.meta || details.filename ? { ...details.meta } : undefined;
  if (meta && details.filename) {
    meta.extension = [
      ...(meta.extension ?? []).filter((extension) => extension.url !== filenameExtensionUrl),
      { url: filenameExtensionUrl, valueString: details.filename },
    ];
  }
  return {
    resourceType: 'Binary',
    ...(details.id ? { id: details.id } : {}),
    ...(meta ? { meta } : {}),
    contentType: details.contentType,
    ...(details.securityContext ? { securityContext: details.securityContext } : {}),
  };
}

/** The file name recorded for a Binary, if any. */
export function binaryFilename(binary: Binary): string | undefined {
  return binary.meta?.extension?.find((extension) => extension.url === filenameExtensionUrl)?.valueString;
}

/**
 * Writes the Binary resource for content already staged, and moves the content into place under
 * the new version. Runs inside the caller's transaction; if that transaction later fails, the
 * caller removes the version's file (`storage.removeVersion`) — see binaryRoutes.
 */
export async function storeStagedBinary(
  storage: BinaryStorage,
  session: RepositorySession,
  ctx: RequestContext,
  details: BinaryDetails,
  staged: StagedContent,
): Promise<{ binary: Binary; created: boolean }> {
  if (!details.contentType) throw errors.invalid('Missing contentType', 'Binary.contentType');
  const resource = binaryResource(details);
  const { resource: stored, created } = details.id
    ? await session.update(ctx, resource)
    : { resource: await session.create(ctx, resource), created: true };
  const binary = stored as Binary;
  await storage.commit(staged, binary.id as string, binary.meta?.versionId as string);
  return { binary, created };
}

/**
 * Stores a Binary resource and its content in one step (the content is streamed to disk, never
 * put in the resource JSON). For server-made files such as bulk export NDJSON. The content is
 * written before the resource; when anything fails, nothing is left behind. If the surrounding
 * transaction fails after this returns, the caller should `storage.removeVersion` the result.
 */
export async function createBinary(
  storage: BinaryStorage,
  session: RepositorySession,
  ctx: RequestContext,
  details: Omit<BinaryDetails, 'id'>,
  content: BinaryContent,
  maxBytes = Number.MAX_SAFE_INTEGER,
): Promise<Binary> {
  const staged = await storage.stage(content, maxBytes);
  try {
    return (await storeStagedBinary(storage, session, ctx, details, staged)).binary;
  } catch (error) {
    await storage.discard(staged);
    throw error;
  }
}
