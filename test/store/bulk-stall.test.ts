/**
 * A bulk load that stops (docs/virtuoso-notes.md, "A bulk load that stops"): Debian's Virtuoso 7.2 once hung in
 * the middle of a file, using no CPU, and the publication waited for good. Here a real loader is stopped the same
 * way: a registered file is replaced by a FIFO with no writer, so the server's loader blocks on opening it. The load must
 * fail within its stall limit, name the file, tell the operator what to do, and cancel its own SQL calls (no
 * client left waiting on the server); the FIFO is then opened for writing and closed, which lets the server's
 * thread go.
 *
 * And the rounds that keep clear of it: files added while the loaders run are registered only once they have
 * returned, so `ld_dir` never runs beside `rdf_loader_run()` (the two 1M runs that stopped had them side by side).
 */
import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { mkdir, open, rename, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Isql, sqlNumber, sqlString } from '../../src/store/remote/isql.js';
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

  it('registers the files added while it loads only between rounds of loaders, and loads them all', async () => {
    const calls: { kind: 'register' | 'load'; from: number; to: number }[] = [];
    class Recording extends Isql {
      override async run(statements: readonly string[], timeoutMs?: number, signal?: AbortSignal): Promise<string> {
        const kind = statements.some((s) => s.startsWith('ld_dir(')) ? 'register' : statements.includes('rdf_loader_run();') ? 'load' : undefined;
        const from = performance.now();
        try {
          return await super.run(statements, timeoutMs, signal);
        } finally {
          if (kind) calls.push({ kind, from, to: performance.now() });
        }
      }
    }
    const isql = new Recording({ address: `127.0.0.1:${virtuoso.isqlPort}`, user: virtuoso.user, password: virtuoso.password, bin: ISQL_BIN as string });
    const folder = join(virtuoso.loadDir, 'rounds');
    await mkdir(folder);
    const FILES = 8;
    const PER_FILE = 20_000;
    const file = async (n: number): Promise<string> => {
      const name = `public-${String(n).padStart(5, '0')}.trig.gz`;
      const lines = Array.from({ length: PER_FILE }, (_, i) => `<urn:x:s${n}-${i}> <urn:x:p> "${i}" .`);
      await writeFile(join(folder, name), gzipSync(`<urn:x:rounds> {\n${lines.join('\n')}\n}\n`));
      return name;
    };
    // A short stall limit: the watchdog looks every 200 ms while the files load, and must see them finish.
    const loading = new Loading(isql, folder, 2, 3_000);
    for (let n = 0; n < FILES; n++) {
      loading.add(await file(n));
      await new Promise((resume) => setTimeout(resume, 40));
    }
    await loading.finish();
    const registered = calls.filter((c) => c.kind === 'register');
    const loads = calls.filter((c) => c.kind === 'load');
    expect(loads.length).toBeGreaterThan(0);
    for (const r of registered) for (const l of loads) expect(r.to <= l.from || l.to <= r.from).toBe(true);
    expect(await sqlNumber(isql, `select count(*) from DB.DBA.LOAD_LIST where ll_file like ${sqlString(`${folder}/%`)} and ll_state = 2 and ll_error is null;`)).toBe(FILES);
    expect(await sqlNumber(isql, `sparql select count(*) where { graph <urn:x:rounds> { ?s ?p ?o } };`)).toBe(FILES * PER_FILE);
    // The watchdog's own reading (uncommitted, so that a stopped loader's locks cannot hold it) prints the number alone.
    expect(Number((await isql.run(["set isolation = 'uncommitted';", `select count(*) from DB.DBA.LOAD_LIST where ll_file like ${sqlString(`${folder}/%`)} and ll_state = 2;`])).trim())).toBe(FILES);
  }, 120_000);
});
