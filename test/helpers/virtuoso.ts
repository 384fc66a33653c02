/**
 * A throw-away Virtuoso open source 7 (Debian's `virtuoso-opensource`, which `.ci/run` installs with apt-get)
 * for tests of the remote SPARQL store: `virtuoso-t +foreground` on two free ports of 127.0.0.1 (ISQL and HTTP)
 * with its database in a fresh temporary directory, removed again by `stop()`. Facts about this server
 * (limits, content types, write paths, timings) are in docs/virtuoso-notes.md.
 *
 * Write access: the anonymous `/sparql` endpoint is read-only (SPARQL Update fails with SR186 unless the role
 * SPARQL_UPDATE is granted to the user "SPARQL", which this harness never does). Writes go to the
 * digest-protected endpoints as `dba`: SPARQL 1.1 Update at `/sparql-auth` and the Graph Store Protocol at
 * `/sparql-graph-crud-auth`. Node's fetch has no digest authentication, so {@link digestFetch} does it (MD5,
 * qop=auth, the one scheme Virtuoso offers).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { digestFetch } from '../../src/store/remote/digest-fetch.js';
import { startServerProcess } from './server-process.js';
import { freePort, onFreePorts, REDIS_BIN } from './redis.js';

export { digestFetch, freePort };

export const VIRTUOSO_BIN = ['/usr/bin/virtuoso-t'].find((p) => existsSync(p));
export const ISQL_BIN = ['/usr/bin/isql-vt'].find((p) => existsSync(p));

/**
 * `describe`, or `describe.skip` with a warning naming `file` when Virtuoso (virtuoso-t and isql-vt) is not
 * installed, or, with `withRedis`, redis-server is not.
 */
export function describeWithVirtuoso(file: string, { withRedis = false } = {}): jest.Describe {
  const missing: string[] = [];
  if (VIRTUOSO_BIN === undefined || ISQL_BIN === undefined) missing.push('no Virtuoso at /usr/bin/virtuoso-t (apt-get install virtuoso-opensource)');
  if (withRedis && REDIS_BIN === undefined) missing.push('no Redis at /usr/bin/redis-server (apt-get install redis-server)');
  if (missing.length === 0) return describe;
  // Visible in the test output, so a skipped store test is never mistaken for a passing one.
  console.warn(`${file} skipped: ${missing.join('; ')}`);
  return describe.skip;
}

export interface VirtuosoOptions {
  /**
   * [SPARQL] ResultSetMaxRows: the cap on rows of one SPARQL result (and on triples of one CONSTRUCT).
   * Default 10,000, as in Debian's /etc/virtuoso-opensource-7/virtuoso.ini; null leaves the line out.
   */
  resultSetMaxRows?: number | null;
  /** [Parameters] MaxSortedTopRows: ORDER BY with OFFSET + LIMIT above it fails with SR353. Default 10,000 (Virtuoso's). */
  maxSortedTopRows?: number;
  /**
   * [SPARQL] MaxQueryCostEstimationTime in seconds (Debian's: 400): a query whose estimated cost is above it is
   * refused before it runs. 0 turns the check off.
   */
  maxQueryCostEstimationTime?: number;
  /** [SPARQL] MaxQueryExecutionTime in seconds (Debian's: 60). 0 is no limit. */
  maxQueryExecutionTime?: number;
  /** [Parameters] NumberOfBuffers, 8 KiB pages (Debian's: 10,000, ~80 MiB). */
  numberOfBuffers?: number;
  /** Milliseconds to wait for the SPARQL endpoint to answer. */
  startTimeoutMs?: number;
  /**
   * More folders for [Parameters] DirsAllowed, beside the database's own: a bulk folder that two servers read
   * (the soak bench's REST and SPARQL servers load the same files).
   */
  dirsAllowed?: string[];
  /**
   * Run on Debian's own /etc/virtuoso-opensource-7/virtuoso.ini, what an operator starts from, with only its
   * paths and ports moved into the test's folder and the test's folder added to DirsAllowed (the one line the
   * bulk loader needs); the other options are ignored.
   */
  debianIni?: boolean;
}

export const DEBIAN_INI = '/etc/virtuoso-opensource-7/virtuoso.ini';

/** Debian's virtuoso.ini with its files, ports and DirsAllowed moved to `dir` and the given ports. */
function debianIni(dir: string, isqlPort: number, httpPort: number): string {
  const stock = readFileSync(DEBIAN_INI, 'utf8');
  return stock
    .replace(/\/var\/lib\/virtuoso-opensource-7\/db\//g, `${dir}/`)
    .replace(/\/var\/lib\/virtuoso-opensource-7\/vsp/g, `${dir}`)
    .replace(/^(\[Parameters\][^[]*?^ServerPort\s*=)[^\n]*/ms, `$1 127.0.0.1:${isqlPort}`)
    .replace(/^(\[HTTPServer\][^[]*?^ServerPort\s*=)[^\n]*/ms, `$1 127.0.0.1:${httpPort}`)
    .replace(/^(DirsAllowed\s*=.*)$/m, `$1, ${dir}`);
}

export interface VirtuosoServer {
  /** Anonymous, read-only SPARQL 1.1 protocol endpoint: `http://127.0.0.1:<port>/sparql`. */
  sparqlUrl: string;
  /** The same endpoint behind digest authentication; accepts SPARQL 1.1 Update for `user`. */
  sparqlAuthUrl: string;
  /** Graph Store Protocol behind digest authentication: `?graph-uri=<graph>`; N-Triples or Turtle bodies, one graph a request. */
  graphStoreUrl: string;
  /** Alias of {@link graphStoreUrl}. */
  crudUrl: string;
  user: string;
  password: string;
  httpPort: number;
  /** The SQL/ISQL ServerPort (`isql-vt 127.0.0.1:<isqlPort> dba dba`). */
  isqlPort: number;
  /** The database directory (virtuoso.ini, virtuoso.db, virtuoso.log); removed by stop(). */
  dir: string;
  /** A directory inside DirsAllowed for bulk loads (`ld_dir`), inside {@link dir}. */
  loadDir: string;
  /** fetch with digest authentication as `user`, for the `-auth` endpoints. */
  authFetch: (url: string, init?: RequestInit) => Promise<Response>;
  /** Runs SQL statements (one per line, each ending in `;`) through isql-vt; rejects on any `*** Error`. */
  isql: (sql: string) => Promise<string>;
  /** Milliseconds from spawning virtuoso-t until the SPARQL endpoint answered. */
  startupMs: number;
  /** Kills the server (SIGTERM, SIGKILL after 5 s) and removes {@link dir}. */
  stop(): Promise<void>;
  /** Kills the server with SIGKILL, as the OOM killer would, keeping its database for {@link restart}. */
  kill(): Promise<void>;
  /** Starts the server again on its database and ports (after {@link kill}); resolves once it answers. */
  restart(): Promise<void>;
  /**
   * How the server ended (`SIGSEGV`, `exit 1`) when it ended by itself (a crash) since it last started;
   * undefined while it runs or after stop() or kill(). Its last output was printed when it ended.
   */
  crashed(): string | undefined;
}

/**
 * When `server` ended by itself (a crash: Debian's 7.2 has segfaulted under the test suite, docs/virtuoso-notes.md,
 * "Crashes"), says so naming `during`, starts it again on its database and resolves true; resolves false when it
 * did not crash. The helper that started it has already printed its last output.
 */
export async function restartIfCrashed(server: VirtuosoServer, during: string): Promise<boolean> {
  const how = server.crashed();
  if (how === undefined) return false;
  console.warn(`Virtuoso ended by itself (${how}) ${during}; starting it again on its database`);
  await server.restart();
  return true;
}

/** The virtuoso.ini of a test database: Debian's sections, paths relative to the directory, small buffers. */
function virtuosoIni(dir: string, isqlPort: number, httpPort: number, options: VirtuosoOptions): string {
  const buffers = options.numberOfBuffers ?? 10000;
  return `[Database]
DatabaseFile       = virtuoso.db
ErrorLogFile       = virtuoso.log
LockFile           = virtuoso.lck
TransactionFile    = virtuoso.trx
xa_persistent_file = virtuoso.pxa
ErrorLogLevel      = 7
FileExtend         = 200
MaxCheckpointRemap = 2000
Striping           = 0
TempStorage        = TempDatabase

[TempDatabase]
DatabaseFile       = virtuoso-temp.db
TransactionFile    = virtuoso-temp.trx
MaxCheckpointRemap = 2000
Striping           = 0

[Parameters]
ServerPort               = 127.0.0.1:${isqlPort}
LiteMode                 = 0
DisableUnixSocket        = 1
DisableTcpSocket         = 0
MaxClientConnections     = 10
CheckpointInterval       = 60
O_DIRECT                 = 0
CaseMode                 = 2
MaxStaticCursorRows      = 5000
CheckpointAuditTrail     = 0
AllowOSCalls             = 0
SchedulerInterval        = 10
DirsAllowed              = ${['.', dir, ...(options.dirsAllowed ?? [])].join(', ')}
ThreadCleanupInterval    = 0
ThreadThreshold          = 10
ResourcesCleanupInterval = 0
FreeTextBatchSize        = 100000
SingleCPU                = 0
PrefixResultNames        = 0
RdfFreeTextRulesSize     = 100
IndexTreeMaps            = 64
MaxQueryMem              = 256M
VectorSize               = 1000
MaxVectorSize            = 1000000
AdjustVectorSize         = 0
ThreadsPerQuery          = 2
AsyncQueueMaxThreads     = 10
NumberOfBuffers          = ${buffers}
MaxDirtyBuffers          = ${Math.floor(buffers * 0.6)}
MaxSortedTopRows         = ${options.maxSortedTopRows ?? 10000}

[HTTPServer]
ServerPort                  = 127.0.0.1:${httpPort}
ServerRoot                  = .
MaxClientConnections        = 10
DavRoot                     = DAV
EnabledDavVSP               = 0
HTTPProxyEnabled            = 0
TempASPXDir                 = 0
ServerThreads               = 10
MaxKeepAlives               = 10
KeepAliveTimeout            = 10
HTTPThreadSize              = 280000
HttpPrintWarningsInOutput   = 0
Charset                     = UTF-8
EnabledGzipContent          = 0

[Client]
SQL_PREFETCH_ROWS  = 100
SQL_PREFETCH_BYTES = 16000
SQL_QUERY_TIMEOUT  = 0
SQL_TXN_TIMEOUT    = 0

[SPARQL]
${options.resultSetMaxRows === null ? '' : `ResultSetMaxRows           = ${options.resultSetMaxRows ?? 10000}\n`}MaxQueryCostEstimationTime = ${options.maxQueryCostEstimationTime ?? 400}
MaxQueryExecutionTime      = ${options.maxQueryExecutionTime ?? 60}
DefaultQuery               = select distinct ?Concept where {[] a ?Concept} LIMIT 100
DeferInferenceRulesInit    = 0
`;
}

/** Runs `sql` through isql-vt on stdin. isql-vt exits 0 even after errors, so stderr is searched for them. */
export function runIsql(port: number, user: string, password: string, sql: string): Promise<string> {
  if (ISQL_BIN === undefined) return Promise.reject(new Error('isql-vt is not installed'));
  return new Promise((resolve, reject) => {
    const child = spawn(ISQL_BIN, [`127.0.0.1:${port}`, user, password, 'VERBOSE=OFF', 'BANNER=OFF', 'PROMPT=OFF', 'ECHO=OFF'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0 || /\*\*\* Error/.test(err)) reject(new Error(`isql-vt failed (exit ${code}): ${err.trim()}\n${sql}`));
      else resolve(out);
    });
    child.stdin.end(sql.endsWith('\n') ? sql : `${sql}\n`);
  });
}


/** A fresh Virtuoso on free ports of 127.0.0.1, answering SPARQL, with the DBA password `dba`. */
export async function startVirtuoso(options: VirtuosoOptions = {}): Promise<VirtuosoServer> {
  if (VIRTUOSO_BIN === undefined) throw new Error('virtuoso-t is not installed (apt-get install virtuoso-opensource)');
  // A start that fails removes its folder, so each attempt makes its own.
  return onFreePorts((isqlPort, httpPort) => startOn(VIRTUOSO_BIN, isqlPort, httpPort, options));
}

async function startOn(bin: string, isqlPort: number, httpPort: number, options: VirtuosoOptions): Promise<VirtuosoServer> {
  const dir = await mkdtemp(join(tmpdir(), 'virtuoso-test-'));
  const loadDir = join(dir, 'load');
  await mkdir(loadDir);
  await writeFile(join(dir, 'virtuoso.ini'), options.debianIni ? debianIni(dir, isqlPort, httpPort) : virtuosoIni(dir, isqlPort, httpPort, options));

  const started = Date.now();
  const sparqlUrl = `http://127.0.0.1:${httpPort}/sparql`;
  // Generous: on a 2-core machine running several test files beside it, a fresh Virtuoso once took over 30 s to answer.
  const timeoutMs = options.startTimeoutMs ?? 90000;
  let crash: string | undefined;
  const launch = () => startServerProcess({
    name: 'virtuoso-t',
    bin,
    args: ['+foreground', '+configfile', join(dir, 'virtuoso.ini')],
    dir,
    ready: async () => {
      const response = await fetch(`${sparqlUrl}?query=${encodeURIComponent('ASK {}')}`, {
        headers: { accept: 'application/sparql-results+json' },
        signal: AbortSignal.timeout(2000),
      });
      await response.arrayBuffer();
      return response.ok;
    },
    readyWhat: `answer ${sparqlUrl}`,
    timeoutMs,
    pollMs: 100,
    onUnexpectedExit: (how) => (crash = how),
  });
  let stopRunning = await launch();

  const user = 'dba';
  const password = 'dba';
  const graphStoreUrl = `http://127.0.0.1:${httpPort}/sparql-graph-crud-auth`;
  return {
    sparqlUrl,
    sparqlAuthUrl: `http://127.0.0.1:${httpPort}/sparql-auth`,
    graphStoreUrl,
    crudUrl: graphStoreUrl,
    user,
    password,
    httpPort,
    isqlPort,
    dir,
    loadDir,
    authFetch: digestFetch(user, password),
    isql: (sql) => runIsql(isqlPort, user, password, sql),
    startupMs: Date.now() - started,
    stop: () => stopRunning(),
    kill: () => stopRunning({ kill: true, keepDir: true }),
    restart: async () => {
      crash = undefined;
      stopRunning = await launch();
    },
    crashed: () => crash,
  };
}
