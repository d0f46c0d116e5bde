/**
 * Where uploaded files (KYC photos) are kept, behind one interface so every station process can read what
 * another stored. The default and only implementation here is a local folder, `DATA_DIR/uploads`: in
 * scale-out mode give every process the same DATA_DIR on a shared volume (NFS, a Kubernetes
 * ReadWriteMany volume…). An S3-compatible store would implement the same three calls (PUT, GET and DELETE
 * of an object by name); it is not built yet.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface UploadStorage {
  /** Stores new bytes under `name` (a fresh random name: never overwrites). */
  put(name: string, bytes: Uint8Array): Promise<void>;
  /** The bytes stored under `name`. */
  get(name: string): Promise<Buffer>;
  /** Deletes what is stored under `name` (nothing there: nothing to do). */
  remove(name: string): Promise<void>;
}

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

function checkName(name: string): string {
  if (!SAFE_NAME.test(name) || name.includes('..')) throw new RangeError(`bad stored file name: ${name}`);
  return name;
}

/** Files in one folder, private to the station's user (0700 folder, 0600 files), created on first use. */
export function localFolderStorage(dir: string): UploadStorage {
  return {
    async put(name, bytes) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await writeFile(path.join(dir, checkName(name)), bytes, { mode: 0o600, flag: 'wx' });
    },
    get: (name) => readFile(path.join(dir, checkName(name))),
    remove: (name) => rm(path.join(dir, checkName(name)), { force: true }),
  };
}

/** The uploads storage of a station: DATA_DIR/uploads. */
export function uploadStorage(config: { dataDir: string }): UploadStorage {
  return localFolderStorage(path.join(config.dataDir, 'uploads'));
}
