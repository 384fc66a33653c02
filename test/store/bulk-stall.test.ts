/**
 * A bulk load that stops (docs/virtuoso-notes.md, "A bulk load that stops"): Debian's Virtuoso 7.2 once hung in
 * the middle of a file, using no CPU, and the publication waited for good. Here a real loader is stopped the same
 * way: a registered file is replaced by a FIFO with no writer, so the server's loader blocks on opening it. The load must
 * fail within its stall limit, name the file, tell the operator what to do, and cancel its own SQL calls (no
 * client left waiting on the server); the FIFO is then opened for writing and closed, which lets the server's
 * thread go.
 */
import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { mkdir, open, rename, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Isql, sqlString } from '../../src/store/remote/isql.js';
import { Loading } from '../../src/store/remote/bulk-load.js';
import { describeWithVirtuoso, ISQL_BIN, startVirtuoso, type VirtuosoServer } from '../helpers/virtuoso.js';

describeWithVirtuoso('bulk-stall.test.ts')('a bulk load whose loader stops', () => {
  let virtuoso: VirtuosoServer;
  beforeAll(async () => {
    virtuoso = await startVirtuoso();
  }, 120_000);
  afterAll(async () => {
    await virtuoso?.stop();
  });

  it('fails once no file finished within its limit, naming the file and what to do, and cancels its SQL calls', async () => {
    const isql = new Isql({ address: `127.0.0.1:${virtuoso.isqlPort}`, user: virtuoso.user, password: virtuoso.password, bin: ISQL_BIN as string });
    const folder = join(virtuoso.loadDir, 'stall');
    await mkdir(folder);
    // ld_dir registers regular files only: the file is registered first, then a FIFO takes its name.
    const fifo = join(folder, 'public-00000.trig.gz');
    await writeFile(fifo, gzipSync('<urn:x:g> { <urn:x:s> <urn:x:p> "o" . }\n'));
    await isql.run([`ld_dir(${sqlString(folder)}, 'public-00000.trig.gz', 'urn:x-museum-ld:empty');`]);
    execFileSync('mkfifo', [`${fifo}.fifo`]);
    await rename(`${fifo}.fifo`, fifo);
    // The next file of the load starts the loader, which takes the registered files in turn: the FIFO first.
    await writeFile(join(folder, 'public-00001.trig.gz'), gzipSync('<urn:x:g> { <urn:x:s> <urn:x:p> "o" . }\n'));
    const clients = (): number => Number(execFileSync('sh', ['-c', `pgrep -fc "[i]sql.*${virtuoso.isqlPort}" || true`]).toString().trim());
    try {
      const loading = new Loading(isql, folder, 1, 3_000);
      loading.add('public-00001.trig.gz');
      const started = performance.now();
      await expect(loading.finish()).rejects.toThrow(/bulk loader finished no file in 3 s while it loaded [^:]*stall\/public-00000\.trig\.gz\b[^:]*: .*restart the server and run the same command again/);
      // The limit, plus at most one look (a fifth of it) and the SQL calls' own time.
      expect(performance.now() - started).toBeLessThan(20_000);
      // The loader's client was killed: nothing of this load still waits on the server.
      expect(clients()).toBe(0);
    } finally {
      // A writer that opens and closes the FIFO ends the server's wait (an empty file, which it then fails);
      // without a reader the open fails at once (ENXIO) rather than waiting.
      await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK).then((writer) => writer.close(), () => undefined);
    }
    // The server itself answers as before.
    expect((await isql.run(['select 1 + 1;'], 30_000)).trim()).toBe('2');
  }, 60_000);
});
