import { Link, Stack, Typography, type TypographyProps } from '@mui/material';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import type { Attachment } from '@medplum/fhirtypes';
import type { FileAddress } from '../../data-provider/client';
import { useFhirClient } from '../resources/useFhirClient';

/** Said of an http(s) address the app does not load: it is only a link, to a place it does not vouch for. */
export const EXTERNAL_FILE_LABEL = 'External file — not loaded';
/** Said of an address that is no web link at all (`javascript:`, `data:text/html`, …): not loaded, not linked. */
export const UNSUPPORTED_FILE_LABEL = 'Unsupported file address — not loaded';

const shownAddressLength = 60;

/** The address as a reader can judge it: host and path (no scheme, query cut), shortened. */
export function shownAddress(href: string): string {
  const url = new URL(href);
  const text = `${url.host}${url.pathname}${url.search ? '?…' : ''}`;
  return text.length > shownAddressLength ? `${text.slice(0, shownAddressLength - 1)}…` : text;
}

/**
 * An attachment address the app does not load (FileAddress `external` or `unsafe`): the label says
 * so, and an http(s) address is a plain link to it (new tab, no opener, no referrer), showing where
 * it leads rather than the attachment's title, which whoever sent it chose.
 */
export function UnloadedFileAddress({ address, color }: { address: FileAddress; color?: TypographyProps['color'] }) {
  if (address.kind !== 'external') {
    return (
      <Typography variant="body2" color={color} data-testid="unsupported-file-address">
        {UNSUPPORTED_FILE_LABEL}
      </Typography>
    );
  }
  return (
    <Stack direction="row" spacing={0.5} alignItems="center" sx={{ minWidth: 0 }} data-testid="external-file-address">
      <OpenInNewIcon fontSize="small" aria-hidden />
      <Typography variant="body2" color={color} sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        {EXTERNAL_FILE_LABEL}:{' '}
        <Link
          href={address.href}
          target="_blank"
          rel="noopener noreferrer"
          color="inherit"
          underline="always"
          title={address.href}
        >
          {shownAddress(address.href)}
        </Link>
      </Typography>
    </Stack>
  );
}

/**
 * An attachment as a link, where the app shows files by name only (resource details, the
 * attachment input, a report's presented forms). Only this server's signed storage address is a
 * link to the file (it opens without the app's token); a Binary address needs the token a link
 * cannot send and an inline image is not opened as a page, so both are named only; any other
 * address is shown as not loaded (UnloadedFileAddress).
 */
export function AttachmentLink({
  attachment,
  name,
  variant = 'body2',
}: {
  attachment: Attachment;
  name: string;
  variant?: 'body1' | 'body2';
}) {
  const client = useFhirClient();
  const address = attachment.url ? client.fileAddress(attachment.url) : undefined;
  if (address?.kind === 'signed') {
    return (
      <Link href={address.href} target="_blank" rel="noopener noreferrer" variant={variant}>
        {name}
      </Link>
    );
  }
  const label = <Typography variant={variant}>{name}</Typography>;
  if (address?.kind !== 'external' && address?.kind !== 'unsafe') return label;
  return (
    <Stack spacing={0.25} sx={{ minWidth: 0 }}>
      {label}
      <UnloadedFileAddress address={address} color="text.secondary" />
    </Stack>
  );
}
