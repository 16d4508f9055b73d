// Public surface of custom-screens/chat (app-spec §2.2 chat routes, §2.12, §4, §7): the chat
// page, the patient portal's layout, and attachments (upload with progress, inline view) for the chart.
export { PatientChatPage } from './PatientChatPage';
export { ChatPanel } from './ChatPanel';
export { PatientPortalLayout } from './portal/PatientPortalLayout';
export { AttachmentView, MediaUploadButton, UploadNotice, useMediaUpload } from './attachments';
export { formatFileSize } from './fileSize';
