import { Link } from '@mui/material';

/** The id of the shell's `main`, where the skip link lands. */
export const MAIN_CONTENT_ID = 'main-content';

/**
 * "Skip to main content", the first stop of the Tab key: hidden until focused, it moves focus past
 * the header (search, notifications, user menu) and the navigation — 13 Tabs before it — to the page.
 */
export function SkipToContent() {
  return (
    <Link
      href={`#${MAIN_CONTENT_ID}`}
      onClick={(event) => {
        // The hash would be taken as a route change by some routers; focus the page directly instead.
        event.preventDefault();
        document.getElementById(MAIN_CONTENT_ID)?.focus();
      }}
      sx={{
        position: 'absolute',
        left: 8,
        top: -48,
        zIndex: (theme) => theme.zIndex.tooltip + 1,
        px: 2,
        py: 1,
        bgcolor: 'background.paper',
        borderRadius: 1,
        boxShadow: 3,
        '&:focus': { top: 8 },
      }}
    >
      Skip to main content
    </Link>
  );
}
