// Public surface of the application shell (app-spec §2.5, §8, §9).
export { ShellLayout } from './ShellLayout';
export { ThemedAdmin } from './ThemedAdmin';
export { ToastProvider, useToast, type ToastOptions, type Toasts } from './toasts';
export { NotificationBridge } from './NotificationBridge';
export { OfflineNotice } from './OfflineNotice';
export { RouterErrorPage, NotFoundPage } from './RouterErrorPage';
export { FullScreenSpinner } from './FullScreenSpinner';
export { withSignInRedirect } from './shellAuthProvider';
export { isSignedOutPath, signInRedirectPath, SIGN_IN_PATH } from './signedOutPaths';
export { ShellClientContext, useShellClient } from './shellClient';
export { useSession, type SessionSnapshot } from './useSession';
export { useLiveCount } from './useLiveCount';
export { isCriteriaBound, subscriptionManagerFor } from './realtime';
export { effectiveColorScheme, useColorSchemeChoice, type ColorSchemeChoice } from './colorScheme';
export { HEADER_HEIGHT, NAVBAR_WIDTH } from './themes';
export { ShellSlotsContext, useShellSlots, type ShellSlots } from './shellSlots';
export { CountBadge } from './CountBadge';
export { isEPrescribingEnabled } from './notificationQueries';
