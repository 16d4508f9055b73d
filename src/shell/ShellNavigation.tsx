import { Box, Drawer } from '@mui/material';
import type { UserConfigurationMenu } from '@medplum/fhirtypes';
import { Navbar } from './Navbar';

/** The id the header's menu button names in `aria-controls`. */
export const NAVBAR_ID = 'shell-navbar';

interface ShellNavigationProps {
  menus: UserConfigurationMenu[];
  /** Overlay drawer (narrow windows) or a column beside the page (wide windows). */
  overlay: boolean;
  open: boolean;
  onClose: () => void;
}

/**
 * Where the side navigation sits: MUI's responsive drawer pattern. Only one of the two is rendered
 * (not both hidden by CSS), so the page has one navigation landmark and no duplicate ids.
 */
export function ShellNavigation({ menus, overlay, open, onClose }: ShellNavigationProps) {
  if (overlay) {
    return (
      <Drawer
        variant="temporary"
        open={open}
        // Escape and a click on the backdrop; the drawer's hook gives focus back to the menu button.
        onClose={onClose}
        ModalProps={{ disableRestoreFocus: true }}
        // MUI makes the temporary drawer's paper a modal dialog; a dialog needs a name (axe, WCAG 4.1.2).
        slotProps={{ paper: { id: NAVBAR_ID, 'aria-label': 'Navigation menu' } }}
      >
        <Navbar menus={menus} onNavigate={onClose} />
      </Drawer>
    );
  }
  if (!open) return null;
  return (
    <Box id={NAVBAR_ID} sx={{ height: '100%' }}>
      <Navbar menus={menus} />
    </Box>
  );
}
