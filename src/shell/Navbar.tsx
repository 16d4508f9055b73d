import { useMemo, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import {
  Autocomplete,
  Box,
  Button,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  TextField,
  Typography,
} from '@mui/material';
import type { UserConfigurationMenu } from '@medplum/fhirtypes';
import BookmarkAddIcon from '@mui/icons-material/BookmarkAdd';
import { knownResourceTypes } from '../../data-provider/rules';
import { findActiveLink } from './activeLink';
import { linkIcon } from './linkIcons';
import { NAVBAR_WIDTH } from './themes';
import { BookmarkDialog } from './BookmarkDialog';

interface NavbarProps {
  menus: UserConfigurationMenu[];
  /** Called after a link or a resource type is chosen (the narrow layout's drawer closes). */
  onNavigate?: () => void;
}

/** The side navigation: resource-type picker, the user's menus, and 'Add Bookmark' (app-spec §2.5). */
export function Navbar({ menus, onNavigate }: NavbarProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const [bookmarkOpen, setBookmarkOpen] = useState(false);
  const [pickerKey, setPickerKey] = useState(0);
  const current = `${location.pathname}${location.search}`;
  const active = useMemo(
    () =>
      findActiveLink(
        current,
        menus.flatMap((menu) => (menu.link ?? []).map((link) => link.target ?? '')),
      ),
    [current, menus],
  );

  return (
    <Box
      component="nav"
      aria-label="Main navigation"
      sx={{
        width: NAVBAR_WIDTH,
        flexShrink: 0,
        borderRight: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
        overflowY: 'auto',
        height: '100%',
      }}
    >
      <Box sx={{ p: 1.5 }}>
        <Autocomplete
          // A "go to" control: it empties after each choice, so it never shows a type the page is not about.
          key={pickerKey}
          size="small"
          options={knownResourceTypes as readonly string[]}
          onChange={(_event, value) => {
            if (!value) return;
            navigate(`/${value}`);
            setPickerKey((key) => key + 1);
            onNavigate?.();
          }}
          renderInput={(params) => <TextField {...params} variant="outlined" label="Resource Type" />}
        />
      </Box>
      {menus.map((menu) => (
        <Box component="section" key={menu.title} aria-labelledby={`menu-${menu.title}`}>
          <Typography
            id={`menu-${menu.title}`}
            component="h2"
            variant="overline"
            color="text.secondary"
            sx={{ display: 'block', px: 2, pt: 1, lineHeight: '24px', fontWeight: 600 }}
          >
            {menu.title}
          </Typography>
          <List dense disablePadding>
            {(menu.link ?? []).map((link) => {
              const Icon = linkIcon(link.name ?? '', link.target ?? '');
              const selected = link.target === active;
              return (
                <ListItem key={`${link.name}-${link.target}`} disablePadding>
                  <ListItemButton
                    component={RouterLink}
                    to={link.target ?? '/'}
                    selected={selected}
                    aria-current={selected ? 'page' : undefined}
                    onClick={onNavigate}
                  >
                    <ListItemIcon sx={{ minWidth: 36 }}>
                      <Icon fontSize="small" />
                    </ListItemIcon>
                    <ListItemText primary={link.name} />
                  </ListItemButton>
                </ListItem>
              );
            })}
          </List>
        </Box>
      ))}
      <Box sx={{ p: 1.5 }}>
        <Button startIcon={<BookmarkAddIcon />} size="small" onClick={() => setBookmarkOpen(true)}>
          Add Bookmark
        </Button>
      </Box>
      <BookmarkDialog open={bookmarkOpen} menus={menus} onClose={() => setBookmarkOpen(false)} />
    </Box>
  );
}
