import type { AccessPolicy } from '@medplum/fhirtypes';
import { canPerformOnType } from '../../../src/resources/accessRules';

/**
 * Whether the caller's access policy lets an upload through: it creates a Media, stores the bytes
 * as a Binary and updates the Media with them (useMediaUpload). A policy short of any of the three
 * is not offered the paperclip or "Upload file", rather than a button that always ends in
 * "Upload error — Forbidden".
 */
export function mayUploadMedia(policy: AccessPolicy | undefined, superAdmin: boolean): boolean {
  return (
    canPerformOnType(policy, superAdmin, 'Media', 'create') &&
    canPerformOnType(policy, superAdmin, 'Media', 'update') &&
    canPerformOnType(policy, superAdmin, 'Binary', 'create')
  );
}
