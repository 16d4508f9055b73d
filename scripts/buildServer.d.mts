/** Types of scripts/buildServer.mjs (plain JavaScript: `npm start` runs it before anything compiles TypeScript). */
export function serverBuildDir(root: string): string;
export function serverBuildIsCurrent(root: string, outDir?: string): boolean;
export function buildServer(root: string, outDir?: string): Promise<{ bundle: string; inputs: string[] }>;
