import { once } from 'node:events';
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { errors } from '../fhir/fhirError';

/** What can be stored: a stream (uploads, exports) or bytes already in memory (small FHIR JSON `data`). */
export type BinaryContent = Readable | Buffer | Uint8Array | string;

/** Content written to a temporary file, not yet attached to a Binary version. */
export interface StagedContent {
  readonly path: string;
  readonly size: number;
  /** Hex SHA-256 of the bytes (kept for logs and tests; the file is the truth). */
  readonly sha256: string;
}

/**
 * Ids and version ids are FHIR ids; anything else never reaches the file system. A name starting
 * with `.` is refused as well: it could be `.`, `..` or the `.incoming` staging folder, which a
 * Binary must never be able to read, overwrite or remove.
 */
const safeName = /^[A-Za-z0-9-][A-Za-z0-9\-.]{0,63}$/;

function checkName(name: string, what: string): void {
  if (!safeName.test(name)) throw errors.invalid(`Invalid ${what}: ${JSON.stringify(name)}`);
}

function asBuffer(content: Buffer | Uint8Array | string): Buffer {
  if (typeof content === 'string') return Buffer.from(content, 'utf8');
  return Buffer.isBuffer(content) ? content : Buffer.from(content.buffer, content.byteOffset, content.byteLength);
}

/** Thrown when content is larger than the limit; nothing of it is kept. */
export class ContentTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The content is larger than the limit of ${maxBytes} bytes`);
  }
}

/** Counts and hashes bytes on their way to the file, and stops the stream past the limit. */
class LimitedHash extends Transform {
  size = 0;
  private readonly hash = createHash('sha256');

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      callback(new ContentTooLargeError(this.maxBytes));
      return;
    }
    this.hash.update(chunk);
    callback(null, chunk);
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}

/**
 * Binary content on disk, outside the resource JSON: `<root>/<binaryId>/<versionId>`. Every version
 * has its own immutable file, so a reader of the current version never sees a half-replaced file,
 * and an old version stays readable. Writes go to `<root>/.incoming/` first and are renamed into
 * place (atomic on one file system); a failed or aborted write leaves nothing behind.
 */
export class BinaryStorage {
  private readonly incoming: string;
  /** The root as an absolute, normalized path (what version paths are checked against). */
  private readonly base: string;

  constructor(readonly root: string) {
    this.base = resolve(root);
    this.incoming = join(this.base, '.incoming');
  }

  /** Storage in `DATA_DIR/binary`. */
  static inDataDir(dataDir: string): BinaryStorage {
    return new BinaryStorage(join(dataDir, 'binary'));
  }

  /**
   * Streams `content` into a temporary file, counting and hashing it. Rejects with
   * ContentTooLargeError past `maxBytes` (the stream is not read further); the temporary file is
   * removed on any failure.
   */
  async stage(content: BinaryContent, maxBytes: number): Promise<StagedContent> {
    await mkdir(this.incoming, { recursive: true });
    const path = join(this.incoming, randomUUID());
    const counter = new LimitedHash(maxBytes);
    // Readable.from hands a Buffer or string over as one chunk (it does not iterate it).
    const source = content instanceof Readable ? content : Readable.from(asBuffer(content));
    const sink = createWriteStream(path, { flags: 'wx' });
    try {
      await pipeline(source, counter, sink);
    } catch (error) {
      // A stream that fails before the file is open still opens it (then closes it): removing the
      // file before that would leave it behind, so the removal waits for the close.
      if (!sink.closed) await once(sink, 'close').catch(() => undefined);
      await rm(path, { force: true });
      throw error;
    }
    return { path, size: counter.size, sha256: counter.digest() };
  }

  /** Moves staged content into place as the bytes of one Binary version. */
  async commit(staged: StagedContent, binaryId: string, versionId: string): Promise<void> {
    checkName(binaryId, 'Binary id');
    checkName(versionId, 'version id');
    await mkdir(dirname(this.versionPath(binaryId, versionId)), { recursive: true });
    await rename(staged.path, this.versionPath(binaryId, versionId));
  }

  /** Forgets staged content that will not be committed. */
  async discard(staged: StagedContent): Promise<void> {
    await rm(staged.path, { force: true });
  }

  /** Removes one version's file (a write whose transaction did not commit). */
  async removeVersion(binaryId: string, versionId: string): Promise<void> {
    checkName(binaryId, 'Binary id');
    checkName(versionId, 'version id');
    await rm(this.versionPath(binaryId, versionId), { force: true });
  }

  /** Removes every stored version of a Binary. */
  async removeAll(binaryId: string): Promise<void> {
    checkName(binaryId, 'Binary id');
    await rm(dirname(this.versionPath(binaryId, 'any')), { recursive: true, force: true });
  }

  /** Size in bytes of a version's content, or undefined when there is none. */
  async size(binaryId: string, versionId: string): Promise<number | undefined> {
    checkName(binaryId, 'Binary id');
    checkName(versionId, 'version id');
    try {
      return (await stat(this.versionPath(binaryId, versionId))).size;
    } catch {
      return undefined;
    }
  }

  /** A stream of a version's bytes; 404 when the version has no stored content. */
  async open(binaryId: string, versionId: string): Promise<{ stream: Readable; size: number }> {
    const size = await this.size(binaryId, versionId);
    if (size === undefined) throw errors.notFoundWith(`Binary/${binaryId} has no stored content`);
    return { stream: createReadStream(this.versionPath(binaryId, versionId)), size };
  }

  /** A version's bytes in memory (callers check the size first: only for small content). */
  async readAll(binaryId: string, versionId: string): Promise<Buffer> {
    const { stream } = await this.open(binaryId, versionId);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  private versionPath(binaryId: string, versionId: string): string {
    const path = resolve(this.base, binaryId, versionId);
    // Belt and braces behind checkName: the file is two levels below the root, never elsewhere.
    if (dirname(dirname(path)) !== this.base || dirname(path) === this.incoming) {
      throw errors.invalid(`Invalid Binary path for ${JSON.stringify(binaryId)}`);
    }
    return path;
  }
}
