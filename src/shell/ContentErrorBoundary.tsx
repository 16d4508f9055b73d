import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Alert, AlertTitle } from '@mui/material';
import { normalizeErrorString } from '../../data-provider/outcomes';

interface Props {
  /** The current location: a new one clears the error (app-spec §2.5). */
  locationKey: string;
  children: ReactNode;
}

interface State {
  error?: unknown;
  locationKey: string;
}

/** Shows a render error of the page as a red 'Something went wrong' alert instead of a blank screen. */
export class ContentErrorBoundary extends Component<Props, State> {
  override state: State = { locationKey: this.props.locationKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.locationKey === state.locationKey ? null : { error: undefined, locationKey: props.locationKey };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // Kept in the console for whoever debugs it; the user sees the message.
    console.error('Render error', error, info.componentStack);
  }

  override render() {
    if (this.state.error === undefined) return this.props.children;
    return (
      <Alert severity="error" variant="outlined" role="alert" sx={{ m: 2 }}>
        <AlertTitle>Something went wrong</AlertTitle>
        {normalizeErrorString(this.state.error)}
      </Alert>
    );
  }
}
