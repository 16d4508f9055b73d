import type { SvgIconComponent } from '@mui/icons-material';
import PeopleIcon from '@mui/icons-material/People';
import EventIcon from '@mui/icons-material/Event';
import EventNoteIcon from '@mui/icons-material/EventNote';
import EventAvailableIcon from '@mui/icons-material/EventAvailable';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import BookmarkIcon from '@mui/icons-material/Bookmark';

/** An icon for a menu link, from its name or target; bookmarks get a bookmark. */
export function linkIcon(name: string, target: string): SvgIconComponent {
  if (name === 'New Appointment') return EventIcon;
  if (name === 'Appointment Requests') return EventNoteIcon;
  if (name === 'Upcoming Appointments') return EventAvailableIcon;
  if (name === 'New Patient' || target === '/onboarding') return PersonAddIcon;
  if (name === 'Patients' || target.startsWith('/Patient')) return PeopleIcon;
  return BookmarkIcon;
}
