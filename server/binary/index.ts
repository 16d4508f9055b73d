export { BinaryStorage, ContentTooLargeError, type BinaryContent, type StagedContent } from './binaryStorage';
export {
  binaryFilename,
  binaryResource,
  createBinary,
  filenameExtensionUrl,
  storeStagedBinary,
  type BinaryDetails,
} from './binaryResource';
export { addAttachmentUrlHooks } from './attachmentUrlHooks';
export { binaryIdOfAttachmentUrl, normalizeBinaryUrls, presentBinaryUrls } from './attachmentUrls';
export { binaryRoutes, maxInlineDataBytes, type BinaryEnvironment, type BinaryRoutesOptions } from './binaryRoutes';
export {
  checkStorageSignature,
  loadUrlSigningKey,
  signStorageUrl,
  signedUrlLifetimeSeconds,
  UrlSigner,
  type SignatureCheck,
} from './signedUrls';
