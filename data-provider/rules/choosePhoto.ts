import type { Attachment, Resource } from '@medplum/fhirtypes';

/** Whether an attachment is a picture that an <img> can show: its content type begins with 'image/' (spec §3). */
export function isImageAttachment(attachment: Attachment | undefined): boolean {
  return typeof attachment?.contentType === 'string' && attachment.contentType.toLowerCase().startsWith('image/');
}

/**
 * The photo to show for a resource: the first of its `photo` attachments that is an image. A PDF
 * or a DICOM file in `photo` is skipped rather than shown as a broken image.
 */
export function choosePhoto(resource: Resource | undefined): Attachment | undefined {
  const photo: unknown = resource && 'photo' in resource ? resource.photo : undefined;
  const attachments = (Array.isArray(photo) ? photo : photo ? [photo] : []) as Attachment[];
  return attachments.find(isImageAttachment);
}
