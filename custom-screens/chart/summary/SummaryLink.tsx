import type { ReactNode } from 'react';
import { Link, type LinkProps } from '@mui/material';
import { Link as RouterLink, useInRouterContext } from 'react-router-dom';

/**
 * A header link: an address inside the app goes through the router (the chart stays loaded, as a
 * tab does), anything else — `#` when the caller gave no target, another site — is a plain link.
 * Outside a router (the summary rendered alone) every link is plain.
 */
export function SummaryLink(props: { href: string; children: ReactNode } & Omit<LinkProps, 'href' | 'component'>) {
  const { href, children, ...rest } = props;
  const routed = useInRouterContext() && href.startsWith('/') && !href.startsWith('//');
  if (routed) {
    return (
      <Link component={RouterLink} to={href} {...rest}>
        {children}
      </Link>
    );
  }
  return (
    <Link href={href} {...rest}>
      {children}
    </Link>
  );
}
