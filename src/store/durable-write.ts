/**
 * A file written whole or not at all: the bytes go to a temporary file beside it (created anew, never another
 * writer's), are synced to disk, and the temporary file is renamed over `file`, so that a reader sees the old
 * file or the new one. On failure the temporary file is removed and the error thrown.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

export async function writeDurably(file: string, bytes: Buffer): Promise<void> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const handle = await open(tmp, 'wx');
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
}
