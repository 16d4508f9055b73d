import { useEffect } from 'react';
import { Button } from '@mui/material';
import { closeSnackbar, useSnackbar } from 'notistack';
import { useNotificationContext, useTakeUndoableMutation, useTranslate } from 'react-admin';

/**
 * Shows react-admin's notifications (useNotify, and the ones react-admin raises itself) as toasts,
 * so the whole app has one toast area. Undoable changes keep their Undo button: closing the toast
 * commits the change, Undo cancels it.
 */
export function NotificationBridge() {
  const { notifications, takeNotification } = useNotificationContext();
  const takeMutation = useTakeUndoableMutation();
  const { enqueueSnackbar } = useSnackbar();
  const translate = useTranslate();

  useEffect(() => {
    if (notifications.length === 0) return;
    const notification = takeNotification();
    if (!notification) return;
    const { message, type, notificationOptions = {} } = notification;
    const { autoHideDuration, messageArgs, undoable } = notificationOptions;
    const text = typeof message === 'string' ? translate(message, { _: message, ...messageArgs }) : message;
    const mutation = undoable ? takeMutation() : undefined;
    let settled = false;
    const settle = (isUndo: boolean) => {
      if (settled || !mutation) return;
      settled = true;
      mutation({ isUndo });
    };
    enqueueSnackbar(text, {
      variant: type,
      persist: autoHideDuration === null,
      autoHideDuration: autoHideDuration ?? undefined,
      onClose: () => settle(false),
      action: undoable
        ? (key) => (
            <Button
              color="inherit"
              size="small"
              onClick={() => {
                settle(true);
                closeSnackbar(key);
              }}
            >
              {translate('ra.action.undo', { _: 'Undo' })}
            </Button>
          )
        : undefined,
    });
  }, [notifications, takeNotification, takeMutation, enqueueSnackbar, translate]);

  return null;
}
