import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';

export interface EmailMessage {
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
  from?: string;
}

export interface EmailResult {
  id: string;
  /** `outbox`: written to DATA_DIR/outbox, not delivered to anyone. */
  delivery: 'outbox';
  file: string;
}

/**
 * Without an SMTP server, messages go to DATA_DIR/outbox as JSON files (one per message) and only the
 * subject is logged: nothing claims they were delivered, and their links are never logged.
 */
export class EmailOutbox {
  constructor(
    private readonly dataDir: string,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  get folder(): string {
    return join(this.dataDir, 'outbox');
  }

  send(message: EmailMessage): EmailResult {
    const id = randomUUID();
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    const file = join(this.folder, `${new Date().toISOString().replace(/[:.]/g, '-')}-${id}.json`);
    writeFileSync(file, JSON.stringify({ id, ...message, createdAt: new Date().toISOString() }, null, 2), {
      mode: 0o600,
    });
    this.log(`E-mail "${message.subject}" written to the outbox (no SMTP_URL configured): ${file}`);
    return { id, delivery: 'outbox', file };
  }
}
