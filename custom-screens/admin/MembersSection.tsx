import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  Link,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import { Link as RouterLink } from 'react-router-dom';
import { awaitingAddressOwnerText } from '../../data-provider/rules';
import { AdminSection } from './AdminSection';
import { InviteDialog } from './InviteDialog';
import { MemberDialog } from './MemberDialog';
import type { MemberRow } from './memberRows';
import { useProjectMembers } from './useProjectMembers';

/** The Members table of the admin screen: profile, e-mail, access policy and admin flag; Invite and Edit. */
export function MembersSection() {
  const members = useProjectMembers();
  // The last member's dialog stays mounted while hidden (keyed by member), so that choices survive
  // closing it by mistake and never show in another member's dialog; `editOpen` says whether it shows.
  const [editing, setEditing] = useState<MemberRow>();
  const [editOpen, setEditOpen] = useState(false);
  const [inviting, setInviting] = useState(false);
  // Mounted at the first Invite and kept: what was typed survives closing the dialog by mistake.
  const [inviteMounted, setInviteMounted] = useState(false);
  const [outcome, setOutcome] = useState<string>();
  // Each dialog ends on its own: closing the Invite dialog must not drop a member's hidden draft.
  const inviteDone = (message?: string) => {
    setInviting(false);
    if (message) setOutcome(message);
  };
  const editDone = (message?: string) => {
    setEditing(undefined);
    setEditOpen(false);
    if (message) setOutcome(message);
  };
  return (
    <AdminSection
      id="admin-members-title"
      title="Members"
      action={
        <Button
          variant="contained"
          startIcon={<PersonAddIcon />}
          onClick={() => {
            setInviteMounted(true);
            setInviting(true);
          }}
        >
          Invite
        </Button>
      }
      outcome={outcome}
      onOutcomeClose={() => setOutcome(undefined)}
    >
      {members.error && <Alert severity="error">{members.error.message}</Alert>}
      {members.isPending && <Typography color="text.secondary">Loading members...</Typography>}
      {members.data && (
        <Table size="small" aria-label="Project members">
          <TableHead>
            <TableRow>
              <TableCell>Profile</TableCell>
              <TableCell>E-mail</TableCell>
              <TableCell>Access policy</TableCell>
              <TableCell>Admin</TableCell>
              <TableCell>
                <Box component="span" sx={visuallyHidden}>
                  Actions
                </Box>
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {members.data.map((member) => (
              <TableRow key={member.id}>
                <TableCell>
                  {member.profileReference ? (
                    <Link component={RouterLink} to={`/${member.profileReference}`}>
                      {member.profile}
                    </Link>
                  ) : (
                    member.profile
                  )}
                  {member.awaitingOwner ? (
                    <Chip
                      size="small"
                      color="warning"
                      label="Waiting for the address owner"
                      title={awaitingAddressOwnerText}
                      sx={{ ml: 1 }}
                    />
                  ) : (
                    !member.active && <Chip size="small" label="Inactive" sx={{ ml: 1 }} />
                  )}
                </TableCell>
                <TableCell>{member.email || '—'}</TableCell>
                <TableCell>{member.accessPolicy}</TableCell>
                <TableCell>
                  {member.admin ? <Chip size="small" color="primary" label="Admin" /> : <span>No</span>}
                </TableCell>
                <TableCell align="right">
                  <Button
                    size="small"
                    onClick={() => {
                      setEditing(member);
                      setEditOpen(true);
                    }}
                    aria-label={`Edit ${member.profile}`}
                  >
                    Edit
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {inviteMounted && <InviteDialog open={inviting} onClose={inviteDone} />}
      {editing && members.data && (
        <MemberDialog
          key={editing.id}
          member={editing}
          members={members.data}
          open={editOpen}
          onHide={() => setEditOpen(false)}
          onClose={editDone}
        />
      )}
    </AdminSection>
  );
}
