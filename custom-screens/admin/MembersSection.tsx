import { useState, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  Link,
  type SxProps,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  type Theme,
  Typography,
} from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import { Link as RouterLink } from 'react-router-dom';
import { awaitingAddressOwnerText } from '../../data-provider/rules';
import { StackedItem, StackedList, useStackedRows } from '../account/StackedRows';
import { noPolicyAccess } from './accessLabels';
import { AdminSection } from './AdminSection';
import { InviteDialog } from './InviteDialog';
import { MemberDialog } from './MemberDialog';
import type { MemberRow } from './memberRows';
import { useProjectMembers } from './useProjectMembers';
import { useAccessPolicies, useProjectRecord } from './useProjectAdmin';

/**
 * The member's e-mail, saying so when it is the profile's or cannot be read: a project admin may
 * not read a User of another project, and the only such members are the server's administrators
 * (their User lives in the server's own project; everybody else's in the shared accounts project).
 */
export function memberEmail(member: MemberRow): ReactNode {
  if (member.emailSource === 'profile') {
    return (
      <>
        {member.email}
        <Typography variant="caption" color="text.secondary" display="block">
          Profile e-mail (server administrator)
        </Typography>
      </>
    );
  }
  if (member.emailSource === 'hidden') {
    return (
      <Typography component="span" variant="body2" color="text.secondary">
        (server administrator)
      </Typography>
    );
  }
  return member.email || '—';
}

/** The Members table of the admin screen: profile, e-mail, access policy and admin flag; Invite and Edit. */
export function MembersSection() {
  const members = useProjectMembers();
  // A patient without a policy gets the project's default patient access, named from the Project.
  const project = useProjectRecord();
  const policies = useAccessPolicies();
  const accessOf = (member: MemberRow) =>
    member.defaultPatientAccess
      ? noPolicyAccess(member.profileReference, project.data, policies.data).label
      : member.accessPolicy;
  // The last member's dialog stays mounted while hidden (keyed by member), so that choices survive
  // closing it by mistake and never show in another member's dialog; `editOpen` says whether it shows.
  const [editing, setEditing] = useState<MemberRow>();
  const [editOpen, setEditOpen] = useState(false);
  const [inviting, setInviting] = useState(false);
  // Mounted at the first Invite and kept: what was typed survives closing the dialog by mistake.
  const [inviteMounted, setInviteMounted] = useState(false);
  const [outcome, setOutcome] = useState<string>();
  const stacked = useStackedRows();
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
  const profile = (member: MemberRow) =>
    member.profileReference ? (
      <Link component={RouterLink} to={`/${member.profileReference}`}>
        {member.profile}
      </Link>
    ) : (
      member.profile
    );
  const status = (member: MemberRow, sx?: SxProps<Theme>) =>
    member.awaitingOwner ? (
      <Chip
        size="small"
        color="warning"
        label="Waiting for the address owner"
        title={awaitingAddressOwnerText}
        sx={sx}
      />
    ) : (
      !member.active && <Chip size="small" label="Inactive" sx={sx} />
    );
  const admin = (member: MemberRow) =>
    member.admin ? <Chip size="small" color="primary" label="Admin" /> : <span>No</span>;
  const edit = (member: MemberRow) => (
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
  );
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
      {members.data && stacked && (
        <StackedList label="Project members">
          {members.data.map((member) => (
            <StackedItem
              key={member.id}
              title={profile(member)}
              badges={status(member)}
              fields={[
                { label: 'E-mail', value: memberEmail(member) },
                { label: 'Access policy', value: accessOf(member) },
                { label: 'Admin', value: admin(member) },
              ]}
              actions={edit(member)}
            />
          ))}
        </StackedList>
      )}
      {members.data && !stacked && (
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
                  {profile(member)}
                  {status(member, { ml: 1 })}
                </TableCell>
                {/* Just above `md` the navigation takes 250 px beside the page: an address may wrap
                    rather than push the table out of its card. */}
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{memberEmail(member)}</TableCell>
                <TableCell>{accessOf(member)}</TableCell>
                <TableCell>{admin(member)}</TableCell>
                <TableCell align="right">{edit(member)}</TableCell>
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
