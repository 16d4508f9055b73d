import { Alert, AlertTitle, Box, Button } from '@mui/material';
import { isRouteErrorResponse, useLocation, useRouteError } from 'react-router-dom';
import { normalizeErrorString } from '../../data-provider/outcomes';

/** The router's error page: 'Unexpected Application Error!' with the message, or the status of a route error. */
export function RouterErrorPage() {
  const error = useRouteError();
  const title = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : 'Unexpected Application Error!';
  const message = isRouteErrorResponse(error)
    ? typeof error.data === 'string'
      ? error.data
      : error.statusText
    : normalizeErrorString(error);
  return (
    <Box component="main" sx={{ p: 4, maxWidth: 800 }}>
      <Alert severity="error" role="alert">
        <AlertTitle>
          <h1 style={{ margin: 0, fontSize: '1.25rem' }}>{title}</h1>
        </AlertTitle>
        {message}
      </Alert>
      <Button sx={{ mt: 2 }} href="/">
        Home
      </Button>
    </Box>
  );
}

/** 404 of a path no screen answers. */
export function NotFoundPage() {
  const location = useLocation();
  return (
    <Box sx={{ p: 3 }}>
      <Alert severity="error" role="alert">
        <AlertTitle>404 Not Found</AlertTitle>
        No route matches URL &quot;{location.pathname}&quot;
      </Alert>
    </Box>
  );
}
