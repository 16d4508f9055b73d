import type { Attachment, Binary, Bot } from '@medplum/fhirtypes';
import { binaryIdOfAttachmentUrl, type BinaryStorage } from '../binary';
import { errors } from '../fhir/fhirError';
import type { RepositorySession } from '../fhir/repository';

/** Bot code larger than this is refused (it is read into memory to run). */
export const maxBotCodeBytes = 5 * 1024 * 1024;

const javascriptTypes = ['application/javascript', 'text/javascript', 'application/x-javascript'];

function isJavaScript(attachment: Attachment | undefined): boolean {
  if (!attachment?.url) return false;
  const type = (attachment.contentType ?? '').split(';')[0].trim().toLowerCase();
  return type === '' || javascriptTypes.includes(type);
}

/**
 * Medplum-style bots are CommonJS (`exports.handler = …`); a bot written with `export` statements
 * is turned into that form, so that both run as a script.
 */
export function asCommonJs(code: string): string {
  return code
    .replace(
      /^export\s+(async\s+)?function\s+([A-Za-z_$][\w$]*)/gm,
      (_all, asyncWord: string | undefined, name: string) => `exports.${name} = ${asyncWord ?? ''}function ${name}`,
    )
    .replace(/^export\s+(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=/gm, (_all, name: string) => `exports.${name} =`);
}

async function attachmentText(
  session: RepositorySession,
  storage: BinaryStorage,
  fhirBase: string,
  attachment: Attachment,
): Promise<string> {
  const binaryId = binaryIdOfAttachmentUrl(attachment.url ?? '', fhirBase);
  if (!binaryId) throw errors.invalid(`Bot code must be stored as a Binary (Binary/{id}), not ${attachment.url}`);
  const binary = (await session.read('Binary', binaryId)) as Binary;
  const versionId = binary.meta?.versionId as string;
  const size = await storage.size(binaryId, versionId);
  if (size === undefined) throw errors.invalid(`The bot's code Binary/${binaryId} has no content`);
  if (size > maxBotCodeBytes) throw errors.invalid(`The bot's code is larger than ${maxBotCodeBytes} bytes`);
  return (await storage.readAll(binaryId, versionId)).toString('utf8');
}

/**
 * The JavaScript a bot runs: its `executableCode` (compiled code in a Binary), else its `code`
 * element, else a JavaScript `sourceCode` Binary. 400 when it has none.
 */
export async function loadBotCode(
  session: RepositorySession,
  storage: BinaryStorage,
  fhirBase: string,
  bot: Bot,
): Promise<string> {
  if (bot.executableCode?.url) return asCommonJs(await attachmentText(session, storage, fhirBase, bot.executableCode));
  if (typeof bot.code === 'string' && bot.code.trim() !== '') return asCommonJs(bot.code);
  if (isJavaScript(bot.sourceCode)) {
    return asCommonJs(await attachmentText(session, storage, fhirBase, bot.sourceCode as Attachment));
  }
  throw errors.invalid(`Bot/${bot.id} has no code: set its executableCode (a Binary) or its code`);
}
