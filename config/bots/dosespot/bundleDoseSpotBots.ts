import { join } from 'node:path';
import { repositoryRoot } from '../../repositoryRoot';
import { DOSESPOT_BOTS } from './dosespotBotIds';

export interface BundledBot {
  identifier: string;
  name: string;
  /** CommonJS-style script (`exports.handler = ...`) for Bot.code, as the bot sandbox runs it. */
  code: string;
}

/** Where the bots' sources are: this folder, found from the repository (also from the server's bundle). */
const sourceDir = join(repositoryRoot, 'config', 'bots', 'dosespot');

/**
 * Bundles each DoseSpot bot's TypeScript into one self-contained script (esbuild). An IIFE assigns
 * the handler to `exports`, the only module global the sandbox offers.
 */
export async function bundleDoseSpotBots(): Promise<BundledBot[]> {
  const { build } = await import('esbuild');
  const bundled: BundledBot[] = [];
  for (const bot of DOSESPOT_BOTS) {
    const result = await build({
      entryPoints: [join(sourceDir, bot.entry)],
      bundle: true,
      write: false,
      format: 'iife',
      globalName: '__doseSpotBot',
      platform: 'neutral',
      target: 'es2020',
      footer: { js: 'exports.handler = __doseSpotBot.handler;' },
      legalComments: 'none',
    });
    bundled.push({ identifier: bot.identifier, name: bot.name, code: result.outputFiles[0].text });
  }
  return bundled;
}
