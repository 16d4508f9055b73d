import nodemailer from 'nodemailer';
import { EmailOutbox, type EmailMessage as OutboxMessage } from './emailOutbox';

export interface OutgoingEmail {
  to: string | string[];
  cc?: string | string[];
  bcc?: string | string[];
  subject: string;
  text?: string;
  html?: string;
}

export type EmailDelivery =
  /** Handed to the SMTP server named by SMTP_URL, which accepted it. */
  | { delivery: 'smtp'; messageId: string }
  /** Written to DATA_DIR/outbox: nobody received it. */
  | { delivery: 'outbox'; file: string };

/** The one way the server sends e-mail (password resets, invitations, `/email/v1/send`). */
export interface EmailSender {
  readonly mode: 'smtp' | 'outbox';
  send(message: OutgoingEmail): Promise<EmailDelivery>;
}

export interface EmailSenderOptions {
  /** `smtp://user:pass@host:port` or `smtps://…`; without it, messages go to the outbox. */
  smtpUrl?: string;
  dataDir: string;
  /** Sender address; `Hearth EMR <noreply@host-of-BASE_URL>` by default. */
  from: string;
  log: (line: string) => void;
}

/** The sender address used when none is configured: noreply at the server's public host. */
export function defaultFromAddress(baseUrl: string): string {
  return `Hearth EMR <noreply@${new URL(baseUrl).hostname}>`;
}

/** SMTP when SMTP_URL is set, the DATA_DIR outbox otherwise. Subjects are logged, never bodies (they carry links). */
export function createEmailSender(options: EmailSenderOptions): EmailSender {
  if (!options.smtpUrl) {
    const outbox = new EmailOutbox(options.dataDir, options.log);
    return {
      mode: 'outbox',
      // The file is written before this returns its promise: a caller that does not wait still finds it.
      send: (message) => {
        const written = outbox.send(outboxMessage(message, options.from));
        return Promise.resolve({ delivery: 'outbox', file: written.file });
      },
    };
  }
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
    mode: 'smtp',
    send: async (message) => {
      const info = await transport.sendMail({
        from: options.from,
        to: message.to,
        cc: message.cc,
        bcc: message.bcc,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      options.log(`E-mail "${message.subject}" accepted by the SMTP server`);
      return { delivery: 'smtp', messageId: String(info.messageId) };
    },
  };
}

function outboxMessage(
  message: OutgoingEmail,
  from: string,
): OutboxMessage & { cc?: string | string[]; bcc?: string | string[] } {
  return {
    to: message.to,
    ...(message.cc ? { cc: message.cc } : {}),
    ...(message.bcc ? { bcc: message.bcc } : {}),
    subject: message.subject,
    text: message.text ?? '',
    ...(message.html ? { html: message.html } : {}),
    from,
  };
}
