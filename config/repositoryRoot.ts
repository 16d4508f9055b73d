import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository's folder, for files the server reads from it (the demo fixtures, the DoseSpot bots'
 * sources, the built web app). This module sits one folder below it both as a source file
 * (config/) and inside the server's bundle (dist-server/main.mjs, scripts/buildServer.mjs), where
 * no module has a file of its own any more — so it is the one place that works out the folder.
 */
export const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
