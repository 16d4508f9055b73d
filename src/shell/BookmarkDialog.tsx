import { useState, type FormEvent } from 'react';
import { useLocation } from 'react-router-dom';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Stack, TextField } from '@mui/material';
import type { UserConfigurationMenu } from '@medplum/fhirtypes';
import { useShellClient } from './shellClient';
import { useToast } from './toasts';
import { saveBookmark } from './saveBookmark';

interface BookmarkDialogProps {
  open: boolean;
  menus: UserConfigurationMenu[];
  onClose: () => void;
}

/** 'Add Bookmark': saves the current page as a link in a menu of the user's configuration. */
export function BookmarkDialog({ open, menus, onClose }: BookmarkDialogProps) {
  const client = useShellClient();
  const toast = useToast();
  const location = useLocation();
  const [menuTitle, setMenuTitle] = useState('');
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<{ menu?: string; name?: string }>({});
  const [saving, setSaving] = useState(false);

  const close = () => {
    setErrors({});
    setName('');
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing = {
      menu: menuTitle ? undefined : 'Menu option is required',
      name: name.trim() ? undefined : 'Bookmark name is required',
    };
    setErrors(missing);
    if (missing.menu || missing.name) return;
    setSaving(true);
    try {
      await saveBookmark(client, menuTitle, name.trim(), `${location.pathname}${location.search}`);
      toast.success('Success');
      close();
    } catch (error) {
      toast.error(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onClose={close} aria-labelledby="bookmark-dialog-title" fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="bookmark-dialog-title">Add Bookmark</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              select
              label="Menu option"
              value={menuTitle}
              onChange={(event) => setMenuTitle(event.target.value)}
              required
              error={errors.menu !== undefined}
              helperText={errors.menu}
            >
              {menus.map((menu) => (
                <MenuItem key={menu.title} value={menu.title}>
                  {menu.title}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label="Bookmark name"
              value={name}
              onChange={(event) => setName(event.target.value)}
              required
              error={errors.name !== undefined}
              helperText={errors.name}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={saving}>
            OK
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
