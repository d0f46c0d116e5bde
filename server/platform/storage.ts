/**
 * Where uploaded files (KYC photos) are kept, behind one interface so every station process can read what
 * another stored. The default and only implementation here is a local folder, `DATA_DIR/uploads`: in
 * scale-out mode give every process the same DATA_DIR on a shared volume (NFS, a Kubernetes
 * ReadWriteMany volume…). An S3-compatible store would implement the same four calls (PUT, GET and DELETE
 * of an object by name, and a listing with each object's last write); it is not built yet.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import path from 'node:path';

/** A stored stream went past the size it was allowed (nothing of it is kept). */
export class TooLargeError extends Error {}

/** The first bytes of an upload kept for judging its type by content. */
const HEAD_BYTES = 16;

export interface UploadStorage {
  /**
   * Stores a stream under `name` (a fresh random name: never overwrites), chunk by chunk, never whole in
   * memory; at most `maxBytes` (beyond: TooLargeError, nothing kept). Answers its size and first bytes.
   */
  putStream(name: string, source: Readable, maxBytes: number): Promise<{ size: number; head: Buffer }>;
  /** The bytes stored under `name`. */
  get(name: string): Promise<Buffer>;
  /** Deletes what is stored under `name` (nothing there: nothing to do). */
  remove(name: string): Promise<void>;
  /**
   * Every name stored, with when it was last written (epoch ms, by the storage's own clock), unfinished
   * writes (`<name>.part`) included: what a sweep needs to find files no record names.
   */
  list(): Promise<StoredFile[]>;
}

export interface StoredFile {
  name: string;
  writtenAt: number;
}

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

function checkName(name: string): string {
  if (!SAFE_NAME.test(name) || name.includes('..')) throw new RangeError(`bad stored file name: ${name}`);
  return name;
}

/** Files in one folder, private to the station's user (0700 folder, 0600 files), created on first use. */
export function localFolderStorage(dir: string): UploadStorage {
  return {
    async putStream(name, source, maxBytes) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const final = path.join(dir, checkName(name));
      // Written beside its final name and renamed when whole: a reader never sees half a file.
      const part = `${final}.part`;
      let size = 0;
      const heads: Buffer[] = [];
      const count = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          if (size > maxBytes) {
            done(new TooLargeError(`upload over ${maxBytes} bytes`));
            return;
          }
          if (size - chunk.length < HEAD_BYTES) heads.push(chunk.subarray(0, HEAD_BYTES));
          done(null, chunk);
        },
      });
      try {
        await pipeline(source, count, createWriteStream(part, { mode: 0o600, flags: 'wx' }));
        await rename(part, final);
      } catch (error) {
        await rm(part, { force: true });
        throw error;
      }
      return { size, head: Buffer.concat(heads).subarray(0, HEAD_BYTES) };
    },
    get: (name) => readFile(path.join(dir, checkName(name))),
    remove: (name) => rm(path.join(dir, checkName(name)), { force: true }),
    async list() {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (error) {
        // No upload yet: the folder is made on the first.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      const files: StoredFile[] = [];
      for (const entry of entries) {
        if (!entry.isFile() || !SAFE_NAME.test(entry.name) || entry.name.includes('..')) continue;
        try {
          files.push({ name: entry.name, writtenAt: (await stat(path.join(dir, entry.name))).mtimeMs });
        } catch (error) {
          // Renamed or removed since the listing (an upload finishing, another process's sweep).
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
      }
      return files;
    },
  };
}

/** The uploads storage of a station: DATA_DIR/uploads. */
export function uploadStorage(config: { dataDir: string }): UploadStorage {
  return localFolderStorage(path.join(config.dataDir, 'uploads'));
}
