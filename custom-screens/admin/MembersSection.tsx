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
  const [editing, setEditing] = useState<MemberRow>();
  const [inviting, setInviting] = useState(false);
  // Mounted at the first Invite and kept: what was typed survives closing the dialog by mistake.
  const [inviteMounted, setInviteMounted] = useState(false);
  const [outcome, setOutcome] = useState<string>();
  const done = (message?: string) => {
    setEditing(undefined);
    setInviting(false);
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
                  <Button size="small" onClick={() => setEditing(member)} aria-label={`Edit ${member.profile}`}>
                    Edit
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {inviteMounted && <InviteDialog open={inviting} onClose={done} />}
      {editing && members.data && <MemberDialog member={editing} members={members.data} onClose={done} />}
    </AdminSection>
  );
}
