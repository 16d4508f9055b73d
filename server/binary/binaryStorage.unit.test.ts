import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FhirError } from '../fhir/fhirError';
import { BinaryStorage, ContentTooLargeError } from './binaryStorage';

let dir: string;
let storage: BinaryStorage;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hearth-binary-'));
  storage = BinaryStorage.inDataDir(dir);
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

function incomingFiles(): string[] {
  try {
    return readdirSync(join(dir, 'binary', '.incoming'));
  } catch {
    return [];
  }
}

function* chunks(count: number, size: number): Generator<Buffer> {
  for (let i = 0; i < count; i++) yield Buffer.alloc(size, i % 251);
}

describe('BinaryStorage', () => {
  it('stages a stream, commits it under a version and reads back the same bytes', async () => {
    const expected = createHash('sha256');
    for (const chunk of chunks(20, 4096)) expected.update(chunk);
    const staged = await storage.stage(Readable.from(chunks(20, 4096)), 1_000_000);
    expect(staged.size).toBe(20 * 4096);
    expect(staged.sha256).toBe(expected.digest('hex'));
    await storage.commit(staged, 'abc-1', 'v1');
    expect(incomingFiles()).toEqual([]);
    expect(await storage.size('abc-1', 'v1')).toBe(20 * 4096);
    const bytes = await storage.readAll('abc-1', 'v1');
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(staged.sha256);
  });

  it('stores strings and byte arrays as they are', async () => {
    const text = await storage.stage('héllo', 100);
    await storage.commit(text, 'text', 'v1');
    expect((await storage.readAll('text', 'v1')).toString('utf8')).toBe('héllo');
    const bytes = new Uint8Array([0, 1, 2, 255]);
    const staged = await storage.stage(bytes.subarray(1, 3), 100);
    await storage.commit(staged, 'bytes', 'v1');
    expect([...(await storage.readAll('bytes', 'v1'))]).toEqual([1, 2]);
  });

  it('refuses content past the limit and keeps nothing', async () => {
    await expect(storage.stage(Readable.from(chunks(10, 1000)), 5000)).rejects.toBeInstanceOf(ContentTooLargeError);
    expect(incomingFiles()).toEqual([]);
  });

  it('keeps nothing of a stream that fails half-way', async () => {
    async function* broken() {
      yield Buffer.alloc(1000);
      throw new Error('connection reset');
    }
    await expect(storage.stage(Readable.from(broken()), 1_000_000)).rejects.toThrow('connection reset');
    expect(incomingFiles()).toEqual([]);
  });

  it('answers 404 for content that is not there, and never touches paths outside its folder', async () => {
    await expect(storage.open('missing', 'v1')).rejects.toMatchObject({ status: 404 });
    await expect(storage.open('..', 'v1')).rejects.toBeInstanceOf(FhirError);
    await expect(storage.size('a/b', 'v1')).rejects.toMatchObject({ status: 400 });
  });

  it('never lets a Binary id name the staging folder or any dot-name', async () => {
    const staged = await storage.stage('payload', 100);
    await expect(storage.commit(staged, '.incoming', 'v1')).rejects.toMatchObject({ status: 400 });
    await expect(storage.commit(staged, 'ok', '.v1')).rejects.toMatchObject({ status: 400 });
    await expect(storage.removeAll('.incoming')).rejects.toMatchObject({ status: 400 });
    await expect(storage.removeVersion('.', 'v1')).rejects.toMatchObject({ status: 400 });
    // The staged file is still there (nothing was moved or removed) and can be committed properly.
    expect(incomingFiles()).toHaveLength(1);
    await storage.commit(staged, 'ok', 'v1');
    expect(await storage.size('ok', 'v1')).toBe(7);
  });

  it('removes a version, and all versions of a Binary', async () => {
    await storage.commit(await storage.stage('one', 10), 'b', 'v1');
    await storage.commit(await storage.stage('two', 10), 'b', 'v2');
    await storage.removeVersion('b', 'v1');
    expect(await storage.size('b', 'v1')).toBeUndefined();
    expect(await storage.size('b', 'v2')).toBe(3);
    await storage.removeAll('b');
    expect(await storage.size('b', 'v2')).toBeUndefined();
  });
});
