export { adminRoutes } from './adminRoutes';
export { invite, type InvitationResult } from './invitation';
export { parseInvite, type InviteRequest } from './inviteInput';
