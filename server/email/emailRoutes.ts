import type { FastifyInstance } from 'fastify';
import type { AuthEnvironment } from '../auth/authEnvironment';
import { authenticate } from '../auth/authenticate';
import { errors, outcomeOf } from '../fhir/fhirError';
import { parseOutgoingEmail } from './emailInput';
import { checkEmailPermission, quotaExceeded, takeEmailQuota } from './emailQuota';

/**
 * `POST /email/v1/send` (Medplum's path): super admins, and admins of projects a super admin gave
 * the `email` feature, send a message through the server's one e-mail sender, at most
 * EMAIL_PROJECT_HOURLY_LIMIT addresses an hour per project (super admins are not counted); never
 * through a third-party app's token (emailQuota.ts). The answer says
 * honestly where it went: accepted by the SMTP server, or only written to the outbox (no
 * SMTP_URL), never "delivered".
 */
export async function emailRoutes(app: FastifyInstance, env: AuthEnvironment): Promise<void> {
  app.post('/email/v1/send', async (request, reply) => {
    const caller = await authenticate(env, request);
    checkEmailPermission(caller);
    const message = parseOutgoingEmail(request.body);
    if (!caller.superAdmin) {
      const limit = env.config.emailProjectHourlyLimit;
      const recipients = [message.to, message.cc ?? [], message.bcc ?? []].flat().length;
      const waitSeconds = await takeEmailQuota(env.repository.db, caller.project.id as string, limit, recipients);
      if (waitSeconds !== undefined) {
        reply.header('retry-after', String(waitSeconds));
        throw quotaExceeded(limit, waitSeconds);
      }
    }
    const result = await env.email.send(message).catch((error: unknown) => {
      request.log.error({ err: error }, 'SMTP delivery failed');
      throw errors.notSupported(`The SMTP server did not accept the message: ${(error as Error).message}`, 502);
    });
    const text =
      result.delivery === 'smtp'
        ? `Message accepted by the SMTP server for delivery (${result.messageId})`
        : 'Message queued to the outbox in DATA_DIR, not delivered: this server has no SMTP_URL configured';
    return reply
      .code(200)
      .type('application/fhir+json')
      .send(outcomeOf([{ severity: 'information', code: 'informational', details: { text } }]));
  });
}
