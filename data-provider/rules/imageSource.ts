import type { Attachment } from '@medplum/fhirtypes';

/** What the client makes of an address (FhirClient.fileAddress): only the kinds this rule needs. */
interface JudgedAddress {
  kind: string;
  href: string;
}

/**
 * The address an `<img>` may load for an image attachment (a photo), or undefined to show initials:
 * only this server's signed storage address and raster `data:` images. An `<img>` sends no access
 * token, so a Binary cannot show this way, and any other address — another site, or another path
 * of this server such as `/oauth2/logout` — would be requested by the browser on every page that
 * shows the photo (src/datatypes/AttachmentLink.tsx follows the same rule for files).
 */
export function imageSource(
  attachment: Attachment | undefined,
  fileAddress: (address: string) => JudgedAddress,
): string | undefined {
  if (!attachment) return undefined;
  const address = attachment.url
    ? attachment.url
    : attachment.data && attachment.contentType
      ? `data:${attachment.contentType};base64,${attachment.data}`
      : undefined;
  if (!address) return undefined;
  const judged = fileAddress(address);
  return judged.kind === 'signed' || judged.kind === 'inline' ? judged.href : undefined;
}
