import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOSESPOT_BOTS } from './dosespotBotIds';

export interface BundledBot {
  identifier: string;
  name: string;
  /** CommonJS-style script (`exports.handler = ...`) for Bot.code, as the bot sandbox runs it. */
  code: string;
}

/** This folder, where the bots' sources are, when this module runs from its own file (tsx, tests). */
const ownFolder = fileURLToPath(new URL('.', import.meta.url));

/**
 * Bundles each DoseSpot bot's TypeScript into one self-contained script (esbuild). An IIFE assigns
 * the handler to `exports`, the only module global the sandbox offers. `sourceDir` is this folder;
 * the server's bundle (scripts/buildServer.mjs), where this module is no longer a file of its own,
 * names it.
 */
export async function bundleDoseSpotBots(sourceDir = ownFolder): Promise<BundledBot[]> {
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
