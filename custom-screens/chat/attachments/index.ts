// Attachments (app-spec §4 'Upload notification', §7 'Attachments'): used by the chat and the chart.
export { AttachmentView } from './AttachmentView';
export { UploadNotice } from './UploadNotice';
export { useMediaUpload, type MediaUpload, type MediaUploadRequest } from './useMediaUpload';
export { uploadNoticeText, uploadPercent, UPLOAD_NOTICE_CLOSE_MS, type UploadState } from './uploadState';
export { MediaUploadButton } from './MediaUploadButton';
export { mayUploadMedia } from './uploadAccess';
