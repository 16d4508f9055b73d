export { BinaryStorage, ContentTooLargeError, type BinaryContent, type StagedContent } from './binaryStorage';
export {
  binaryFilename,
  binaryResource,
  createBinary,
  filenameExtensionUrl,
  storeStagedBinary,
  type BinaryDetails,
} from './binaryResource';
