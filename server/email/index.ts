export {
  createEmailSender,
  defaultFromAddress,
  type EmailDelivery,
  type EmailSender,
  type OutgoingEmail,
} from './emailSender';
export { emailRoutes } from './emailRoutes';
export { parseOutgoingEmail } from './emailInput';
