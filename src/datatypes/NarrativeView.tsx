import { useMemo } from 'react';
import DOMPurify from 'dompurify';
import { Box } from '@mui/material';

/** A resource's narrative XHTML, sanitized before it reaches the page. */
export function NarrativeView(props: { div: string }) {
  const html = useMemo(() => DOMPurify.sanitize(props.div, { USE_PROFILES: { html: true } }), [props.div]);
  return (
    <Box
      className="narrative"
      sx={{ '& table': { borderCollapse: 'collapse' }, '& td, & th': { border: 1, borderColor: 'divider', p: 0.5 } }}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
