import net from 'node:net';

/**
 * A load generator's HTTP/1.1 GET client: one keep-alive socket per client, one request in flight
 * on each (no pipelining), every answer's body read whole by its Content-Length or its chunks.
 *
 * Why not node:http: on the bench's 2 shared cores the load generator competes with the server it
 * measures, and node:http's client spent ~130 µs of CPU per read here (IncomingMessage streams,
 * header objects, the agent's socket bookkeeping) where node-postgres spends ~60 µs on the SQL side's
 * read. Load generators made for the job (wrk, autocannon) keep the client this thin for the same
 * reason. The server's side of the exchange is untouched: the same request bytes reach it.
 */
export interface RawHttpGetter {
  /** Sends `GET path` on a free connection; answers the status once the whole body has arrived. */
  get(path: string): Promise<number>;
  close(): void;
}

interface Pending {
  resolve: (status: number) => void;
  reject: (error: Error) => void;
}

const headerEnd = Buffer.from('\r\n\r\n');

/** Parses one connection's answers, which arrive in order, one at a time. */
class Connection {
  private readonly socket: net.Socket;
  private buffered: Buffer = Buffer.alloc(0);
  private pending: Pending | undefined;
  private status = 0;
  /** Body bytes still to come for a Content-Length answer; -1 while reading headers; -2 for chunked. */
  private remaining = -1;
  private failure: Error | undefined;

  constructor(host: string, port: number) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
    this.socket.on('error', (error) => this.fail(error));
    this.socket.on('close', () => this.fail(new Error('connection closed by the server')));
  }

  get busy(): boolean {
    return this.pending !== undefined;
  }

  send(request: string, pending: Pending): void {
    if (this.failure) return pending.reject(this.failure);
    this.pending = pending;
    this.socket.write(request);
  }

  close(): void {
    this.socket.destroy();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    const pending = this.pending;
    this.pending = undefined;
    pending?.reject(error);
  }

  private onData(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    try {
      this.parse();
    } catch (error) {
      this.fail(error as Error);
      this.socket.destroy();
    }
  }

  private parse(): void {
    if (this.remaining === -1) {
      const end = this.buffered.indexOf(headerEnd);
      if (end < 0) return;
      const head = this.buffered.toString('latin1', 0, end);
      this.buffered = this.buffered.subarray(end + 4);
      const statusLine = /^HTTP\/1\.1 (\d{3})/.exec(head);
      if (!statusLine) throw new Error(`Not an HTTP/1.1 answer: ${head.slice(0, 40)}`);
      this.status = Number(statusLine[1]);
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
      if (length) this.remaining = Number(length[1]);
      else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) this.remaining = -2;
      else throw new Error('An answer with neither Content-Length nor chunked encoding');
    }
    if (this.remaining === -2) return this.parseChunks();
    if (this.buffered.length < this.remaining) return;
    if (this.buffered.length > this.remaining) throw new Error('More bytes than the answer held');
    this.buffered = Buffer.alloc(0);
    this.finish();
  }

  /** Chunked bodies: complete once the zero-size chunk and its trailing CRLF have arrived. */
  private parseChunks(): void {
    let at = 0;
    for (;;) {
      const lineEnd = this.buffered.indexOf('\r\n', at);
      if (lineEnd < 0) return;
      const size = Number.parseInt(this.buffered.toString('latin1', at, lineEnd), 16);
      if (Number.isNaN(size)) throw new Error('A malformed chunk size');
      const next = lineEnd + 2 + size + 2;
      if (this.buffered.length < next) return;
      if (size === 0) {
        if (this.buffered.length > next) throw new Error('More bytes than the answer held');
        this.buffered = Buffer.alloc(0);
        return this.finish();
      }
      at = next;
    }
  }

  private finish(): void {
    this.remaining = -1;
    const pending = this.pending;
    this.pending = undefined;
    pending?.resolve(this.status);
  }
}

/** `connections` keep-alive connections to `baseUrl`'s host; every request carries `headers`. */
export function rawHttpGetter(
  baseUrl: string,
  connections: number,
  headers: Record<string, string> = {},
): RawHttpGetter {
  const { hostname, port, host } = new URL(baseUrl);
  const pool = Array.from({ length: connections }, () => new Connection(hostname, Number(port || 80)));
  const extra = Object.entries({ host, ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const waiting: { path: string; pending: Pending }[] = [];
  const dispatch = (path: string, pending: Pending) => {
    const free = pool.find((connection) => !connection.busy);
    if (!free) return void waiting.push({ path, pending });
    free.send(`GET ${path} HTTP/1.1\r\n${extra}\r\n`, {
      resolve: (status) => {
        pending.resolve(status);
        const next = waiting.shift();
        if (next) dispatch(next.path, next.pending);
      },
      reject: pending.reject,
    });
  };
  return {
    get: (path) => new Promise<number>((resolve, reject) => dispatch(path, { resolve, reject })),
    close: () => {
      for (const connection of pool) connection.close();
    },
  };
}
