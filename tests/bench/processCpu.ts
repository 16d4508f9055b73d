import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time of the processes a benchmark phase involves (the bench itself, the server, the
 * PostgreSQL cluster), from /proc. On 2 shared cores a throughput ratio says how fast each side
 * was; the CPU each process spent per request says where the difference went.
 */

const ticksPerSecond = 100;

/** User + system CPU seconds of a process so far, 0 when it has ended. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return 0;
  }
}

function parentOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return 0;
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

function allPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

/**
 * The processes of the PostgreSQL cluster listening on `port`: its postmaster (started by
 * scripts/startTestPostgres.sh with `port=N` on its command line) and every process it forked
 * (backends, writer, WAL writer...). Every postgres process when no postmaster names the port.
 */
export function postgresPids(port: number): number[] {
  const pids = allPids();
  const postmaster = pids.find((pid) => {
    const line = commandLine(pid);
    return /\bpostgres\b/.test(line) && line.includes(`port=${port} `);
  });
  if (postmaster === undefined) return pids.filter((pid) => /^postgres\b/.test(commandLine(pid)));
  return [postmaster, ...pids.filter((pid) => parentOf(pid) === postmaster)];
}

export interface CpuShare {
  bench: number;
  server?: number;
  postgres: number;
}

/**
 * Starts measuring; the function answers the CPU seconds each group spent since. PostgreSQL's
 * processes are listed again at the end, so backends opened during the phase count from zero.
 */
export function startCpuMeter(groups: { server?: number; postgresPort: number }): () => CpuShare {
  const before = new Map<number, number>();
  for (const pid of postgresPids(groups.postgresPort)) before.set(pid, cpuSeconds(pid));
  const bench0 = process.cpuUsage();
  const server0 = groups.server === undefined ? 0 : cpuSeconds(groups.server);
  return () => {
    const bench = process.cpuUsage(bench0);
    let postgres = 0;
    for (const pid of postgresPids(groups.postgresPort)) postgres += cpuSeconds(pid) - (before.get(pid) ?? 0);
    return {
      bench: (bench.user + bench.system) / 1e6,
      server: groups.server === undefined ? undefined : cpuSeconds(groups.server) - server0,
      postgres,
    };
  };
}
