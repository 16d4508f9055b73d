import { Alert, Chip, Link, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { useProjectMembers } from './useProjectMembers';

/** The Members table of the admin screen: profile, e-mail, access policy and admin flag. */
export function MembersSection() {
  const members = useProjectMembers();
  return (
    <section aria-labelledby="admin-members-title">
      <Typography id="admin-members-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        Members
      </Typography>
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
                </TableCell>
                <TableCell>{member.email || '—'}</TableCell>
                <TableCell>{member.accessPolicy}</TableCell>
                <TableCell>
                  {member.admin ? <Chip size="small" color="primary" label="Admin" /> : <span>No</span>}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </section>
  );
}
