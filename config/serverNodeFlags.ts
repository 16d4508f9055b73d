/**
 * The node flags the server runs with: `npm start` (package.json, which cannot import this list;
 * serverNodeFlags.test.ts keeps the two the same), the end-to-end tests' server and the benchmarks.
 * With `serverEnvironment` below, which must be set before node starts.
 *
 * - `--expose-gc`: one full collection once the start steps are done (server/serverRuntime.ts).
 * - `--max-semi-space-size=32`: V8's young generation may grow to 2 × 32 MB instead of 2 × 16 MB.
 *   A transaction Bundle's parsed entries live as long as the Bundle does; with the default they
 *   outlived one or two scavenges, were copied and promoted to the old generation, and garbage
 *   collection was ~18 % of the server's CPU in an import. With 32 MB the server spends ~13 % less
 *   CPU per imported resource; its idle memory after a first start measured 293–344 MB against
 *   279–293 MB with the default. 64 MB saved more but kept the first start's idle process at
 *   ~370 MB, over the 350 MB budget
 *   (docs/performance.md, "Fourth pass").
 * - `--no-allocation-site-pretenuring`: V8 may otherwise decide, from where objects were allocated
 *   during a first start (definitions loaded through pg: most of those rows, results and strings
 *   lived on), to allocate every later object from the same places — pg's rows and results, the
 *   HTTP request's — straight in the old generation. Such an object dies with its request but
 *   stays until the next full collection, and everything young it points to is kept and promoted
 *   with it: after a first start every read's whole graph, its ~1.6 KB resource text included,
 *   was promoted (1.4 MB per scavenge, a full collection every ~3 s, scavenge pauses 2–10 ms).
 *   A restart, which loads nothing, had none of it. Without pretenuring nothing is promoted while
 *   reads run; four alternating runs each: read p99 5.0–9.1 ms against 7.4–12.3 ms, server CPU
 *   per read 130–168 µs against 155–229 µs, per imported resource 315–365 µs against
 *   328–415 µs, the same memory (docs/performance.md, "Sixth pass").
 */
export const serverNodeFlags: readonly string[] = [
  '--expose-gc',
  '--max-semi-space-size=32',
  '--no-allocation-site-pretenuring',
];

/**
 * Environment the server process starts with (before node: the C library reads it once).
 *
 * - `MALLOC_TRIM_THRESHOLD_=1048576`: glibc gives freed memory at the top of its heap back to the
 *   system once more than 1 MB is free there, instead of keeping it (its threshold otherwise grows
 *   with the largest block freed, up to 32 MB). A first start parses ~90 MB of definitions; most
 *   of the idle process's memory after it was native memory freed and kept. Measured on four first
 *   starts each (docs/performance.md, "Fifth pass"): idle RSS 250–294 MB against 309–338 MB, with
 *   the same server CPU per imported resource and per read.
 */
export const serverEnvironment: Readonly<Record<string, string>> = { MALLOC_TRIM_THRESHOLD_: '1048576' };

/** `npm start`'s command line: the environment, then node with the flags. */
export function serverStartCommand(entry: string): string {
  const environment = Object.entries(serverEnvironment).map(([name, value]) => `${name}=${value}`);
  return [...environment, 'node', ...serverNodeFlags, entry].join(' ');
}
