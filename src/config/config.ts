/**
 * Typed configuration from environment variables, validated once at start-up. Every problem is reported as
 * one line naming the variable and the form it accepts; secrets are never echoed. The table of settings is
 * `docs/configuration.md`.
 */
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { SecretList } from './secret-list.js';
import { Secret } from './secret.js';
import { SecretUrl } from './secret-url.js';
import { unknownSettingProblems } from './unknown-settings.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Express's `trust proxy` setting: on/off, a hop count, or trusted addresses, subnets and presets. */
export type TrustProxy = boolean | number | readonly string[];

export interface Config {
  port: number;
  /** Scheme, host and port of every `@id`; no trailing slash. */
  baseUrl: string;
  /** Absolute path of the folder that holds the store generations. */
  dataDir: string;
  /** v2 requests per minute per client IP; 0 disables the limit. */
  rateLimitPerMinute: number;
  logLevel: LogLevel;
  sparqlTimeoutMs: number;
  sparqlMaxRows: number;
  sparqlMaxConcurrent: number;
  /** MiB of SPARQL answers cached per generation (0 disables the result cache and the coalescing of identical queries). */
  sparqlResultCacheMb: number;
  /** Hosts (`host[:port]`, lower case) whose image URIs are accepted and proxied. */
  imageHosts: readonly string[];
  /**
   * DEMO: true generates and serves the demo whatever the data folder holds (unless a current generation that
   * is not the demo's is kept), false never; undefined (unset) decides by the folder (src/demo/bootstrap.ts).
   */
  demo?: boolean;
  demoObjects: number;
  demoSeed: number;
  trustProxy: TrustProxy;
  /** Keys accepted by the restricted v1 endpoints; prints as a placeholder. */
  v1ApiKeys: SecretList;
  /** The instant v1 retires: its `Sunset` header, and every v1 path answers 410 from then on. */
  v1Sunset: Date;
  /** Generations kept on disk after a swap (the current one included). */
  keepGenerations: number;
  /** Finished record documents kept per generation (0 disables the cache). */
  recordCacheSize: number;
  /** Redis holding the rate-limit counters shared by replicas; unset: each process counts on its own. Prints without its password. */
  redisUrl: SecretUrl | undefined;
  /** The remote SPARQL server (STORE_URL and its companions); undefined: the embedded Oxigraph store. */
  store: RemoteStoreConfig | undefined;
  /** Prefix of every key this service writes to Redis, so several services can share one. */
  redisKeyPrefix: string;
}

export interface RemoteStoreConfig {
  /** The server's SPARQL query endpoint. */
  url: string;
  updateUrl?: string;
  graphStoreUrl?: string;
  user?: string;
  password?: Secret;
  /** The server's row limit (Virtuoso's ResultSetMaxRows), 0 for none: a CONSTRUCT of one more triple was cut. */
  rowLimit: number;
  /** Publication through the server's bulk loader (STORE_BULK_DIR with STORE_ISQL); undefined: the Graph Store Protocol. */
  bulk?: BulkStoreConfig;
  /**
   * The public SPARQL endpoint's own server (SPARQL_STORE_URL, SPARQL_STORE_ISQL): clients' queries run there, the
   * REST API's never, and every publication writes each generation to it too. Undefined: one server for both.
   */
  sparql?: SparqlServerConfig;
}

export interface SparqlServerConfig {
  /** Its SPARQL query endpoint. */
  url: string;
  /** host:port of its SQL port, for the bulk loader (with STORE_BULK_DIR, which it must read too). */
  isql?: string;
}

export interface BulkStoreConfig {
  /** Where the service writes the files. */
  dir: string;
  /** The same folder as the server names it. */
  serverDir: string;
  /** host:port of the SQL port. */
  isql: string;
  isqlBin: string;
  loaders: number;
}

/** A configuration problem; `message` is one line fit to print before exiting. */
export class ConfigError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

interface Setting<T> {
  schema: z.ZodType<T, string>;
  /** The accepted form, completing "NAME must be ...". */
  form: string;
  /** Secret values are never repeated in a message. */
  secret?: boolean;
}

const int = (min: number, max: number): Setting<number> => ({
  schema: z
    .string()
    .regex(/^-?\d+$/)
    .transform(Number)
    .pipe(z.number().int().min(min).max(max)),
  form: max === Number.MAX_SAFE_INTEGER ? `an integer >= ${min}` : `an integer from ${min} to ${max}`,
});

const list = (s: string): string[] =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');

/** `s` as a URL, or undefined when it is none. */
const parsedUrl = (s: string): URL | undefined => (URL.canParse(s) ? new URL(s) : undefined);

const baseUrlSetting: Setting<string> = {
  schema: z.string().transform((s, ctx) => {
    const url = parsedUrl(s);
    if (url === undefined) {
      ctx.addIssue({ code: 'custom', message: 'not a URL' });
      return z.NEVER;
    }
    const ok =
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      url.username === '' &&
      url.password === '' &&
      url.pathname === '/' &&
      !s.includes('?') &&
      !s.includes('#');
    if (!ok) ctx.addIssue({ code: 'custom', message: 'not an origin' });
    return url.origin;
  }),
  form: 'an http(s) URL with scheme and host only, such as https://data.example.org (no path, query or fragment)',
};

const HOST = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;
const imageHostsSetting: Setting<string[]> = {
  schema: z
    .string()
    .transform((s) => list(s).map((h) => h.toLowerCase()))
    .pipe(z.array(z.string().regex(HOST)).min(1)),
  form: 'a comma-separated list of host names, optionally with :port (such as images.example.org,localhost:3000)',
};

const TRUST_PRESETS = new Set(['loopback', 'linklocal', 'uniquelocal']);
const isTrustEntry = (entry: string): boolean => {
  if (TRUST_PRESETS.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
};
const trustProxySetting: Setting<TrustProxy> = {
  schema: z.string().transform((s, ctx): TrustProxy => {
    const v = s.trim().toLowerCase();
    if (v === 'true') return true;
    if (v === 'false') return false;
    if (/^\d{1,2}$/.test(v)) return Number(v);
    const entries = list(v);
    if (entries.length === 0 || !entries.every(isTrustEntry)) {
      ctx.addIssue({ code: 'custom', message: 'not a trust proxy value' });
      return z.NEVER;
    }
    return entries;
  }),
  form:
    'true, false, a number of proxy hops, or a comma-separated list of IP addresses, CIDR subnets ' +
    'and the presets loopback, linklocal, uniquelocal',
};

const httpUrl = (example: string): Setting<string> => ({
  schema: z.string().refine((s) => {
    const url = parsedUrl(s);
    return url !== undefined && (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '' && url.hash === '';
  }),
  form: `an http(s) URL without credentials: ${example}`,
  // Not echoed: a refused URL may hold a password (http://user:password@host).
  secret: true,
});

const SETTINGS = {
  PORT: int(0, 65535),
  BASE_URL: baseUrlSetting,
  DATA_DIR: {
    schema: z.string().trim().min(1).transform((s) => path.resolve(s)),
    form: 'a directory path',
  },
  RATE_LIMIT_PER_MINUTE: int(0, 1_000_000),
  LOG_LEVEL: {
    schema: z
      .string()
      .transform((s) => s.toLowerCase())
      .pipe(z.enum(LOG_LEVELS)),
    form: `one of ${LOG_LEVELS.join(', ')}` },
  SPARQL_TIMEOUT_MS: int(1, 3_600_000),
  SPARQL_MAX_ROWS: int(1, 10_000_000),
  SPARQL_MAX_CONCURRENT: int(1, 64),
  SPARQL_RESULT_CACHE_MB: int(0, 65_536),
  IMAGE_HOSTS: imageHostsSetting,
  DEMO: {
    schema: z.enum(['1', '0', 'true', 'false']).transform((s) => s === '1' || s === 'true'),
    form: '1 or 0 (true or false)',
  },
  DEMO_OBJECTS: int(1, 10_000_000),
  DEMO_SEED: int(0, 2 ** 32 - 1),
  TRUST_PROXY: trustProxySetting,
  V1_API_KEYS: {
    schema: z.string().transform(list).pipe(z.array(z.string().regex(/^[\x21-\x7e]+$/))),
    form: 'a comma-separated list of keys of printable ASCII characters without spaces',
    secret: true,
  },
  V1_SUNSET: {
    schema: z.iso.datetime({ offset: true }).transform((s) => new Date(s)),
    form: 'an ISO 8601 instant with a time zone, such as 2026-12-31T23:59:59Z',
  },
  KEEP_GENERATIONS: int(1, 1000),
  RECORD_CACHE_SIZE: int(0, 10_000_000),
  REDIS_URL: {
    schema: z.string().transform((s, ctx) => {
      const url = parsedUrl(s);
      if (url === undefined) {
        ctx.addIssue({ code: 'custom', message: 'not a URL' });
        return z.NEVER;
      }
      const ok = (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '' && /^(?:\/\d*)?$/.test(url.pathname) && url.hash === '';
      if (!ok) ctx.addIssue({ code: 'custom', message: 'not a Redis URL' });
      return new SecretUrl(s);
    }),
    form: 'a redis:// or rediss:// URL such as redis://:password@127.0.0.1:6379/0',
    secret: true,
  },
  STORE_URL: httpUrl('the SPARQL query endpoint of the server, such as http://127.0.0.1:8890/sparql'),
  STORE_UPDATE_URL: httpUrl('its SPARQL Update endpoint, such as http://127.0.0.1:8890/sparql-auth'),
  STORE_GRAPH_STORE_URL: httpUrl('its Graph Store Protocol endpoint, such as http://127.0.0.1:8890/sparql-graph-crud-auth'),
  STORE_USER: { schema: z.string().regex(/^[^\s:]{1,128}$/), form: 'a user name without spaces or colons' },
  STORE_ROW_LIMIT: int(0, 1_000_000_000),
  STORE_PASSWORD: { schema: z.string().min(1).transform((s) => new Secret(s)), form: 'a password', secret: true },
  STORE_BULK_DIR: {
    schema: z.string().trim().min(1).transform((s) => path.resolve(s)),
    form: 'a directory path that the SPARQL server may read (Virtuoso: listed in DirsAllowed)',
  },
  STORE_BULK_SERVER_DIR: {
    schema: z.string().trim().regex(/^\/[^\0']*$/),
    form: 'an absolute path without quotes: STORE_BULK_DIR as the server names it',
  },
  STORE_ISQL: {
    schema: z.string().trim().regex(/^[A-Za-z0-9.-]{1,253}:\d{1,5}$|^\[[0-9A-Fa-f:.]+\]:\d{1,5}$/),
    form: "host:port of the server's SQL port, such as 127.0.0.1:1111",
  },
  STORE_ISQL_BIN: { schema: z.string().trim().min(1), form: 'the SQL client program, such as isql-vt or /usr/bin/isql-vt' },
  STORE_BULK_LOADERS: int(1, 64),
  SPARQL_STORE_URL: httpUrl("the public SPARQL endpoint's own server, such as http://127.0.0.1:8891/sparql"),
  SPARQL_STORE_ISQL: {
    schema: z.string().trim().regex(/^[A-Za-z0-9.-]{1,253}:\d{1,5}$|^\[[0-9A-Fa-f:.]+\]:\d{1,5}$/),
    form: "host:port of that server's SQL port, such as 127.0.0.1:1112",
  },
  REDIS_KEY_PREFIX: {
    schema: z.string().regex(/^[\x21-\x7e]{1,64}$/),
    form: 'up to 64 printable ASCII characters without spaces, such as museum-ld:',
  },
} satisfies Record<string, Setting<unknown>>;

type SettingName = keyof typeof SETTINGS;
type Parsed = { [K in SettingName]?: z.output<(typeof SETTINGS)[K]['schema']> };

/** The names of every environment variable the service reads. */
export const SETTING_NAMES = Object.keys(SETTINGS) as readonly SettingName[];

/** Reads and validates the configuration; throws `ConfigError` listing every problem, one clause per variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems = unknownSettingProblems(Object.keys(env), SETTING_NAMES);
  const parsed: Parsed = {};
  for (const name of SETTING_NAMES) {
    const raw = env[name];
    // An empty variable is treated as unset, as shells and compose files often export NAME= for "default".
    if (raw === undefined || raw.trim() === '') continue;
    const setting: Setting<unknown> = SETTINGS[name];
    const result = setting.schema.safeParse(raw.trim());
    if (result.success) (parsed as Record<string, unknown>)[name] = result.data;
    else problems.push(`${name} must be ${setting.form}${setting.secret ? '' : ` (got ${JSON.stringify(raw)})`}`);
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const port = parsed.PORT ?? 3000;
  const baseUrl = parsed.BASE_URL ?? `http://localhost:${port}`;
  return {
    port,
    baseUrl,
    dataDir: parsed.DATA_DIR ?? path.resolve('data'),
    rateLimitPerMinute: parsed.RATE_LIMIT_PER_MINUTE ?? 10,
    logLevel: parsed.LOG_LEVEL ?? 'info',
    sparqlTimeoutMs: parsed.SPARQL_TIMEOUT_MS ?? 10_000,
    sparqlMaxRows: parsed.SPARQL_MAX_ROWS ?? 10_000,
    sparqlMaxConcurrent: parsed.SPARQL_MAX_CONCURRENT ?? 2,
    sparqlResultCacheMb: parsed.SPARQL_RESULT_CACHE_MB ?? 64,
    imageHosts: parsed.IMAGE_HOSTS ?? [new URL(baseUrl).host],
    ...(parsed.DEMO === undefined ? {} : { demo: parsed.DEMO }),
    demoObjects: parsed.DEMO_OBJECTS ?? 1000,
    demoSeed: parsed.DEMO_SEED ?? 1,
    trustProxy: parsed.TRUST_PROXY ?? false,
    v1ApiKeys: new SecretList(parsed.V1_API_KEYS ?? []),
    v1Sunset: parsed.V1_SUNSET ?? new Date('2026-12-31T23:59:59Z'),
    keepGenerations: parsed.KEEP_GENERATIONS ?? 3,
    recordCacheSize: parsed.RECORD_CACHE_SIZE ?? 200_000,
    redisUrl: parsed.REDIS_URL,
    redisKeyPrefix: parsed.REDIS_KEY_PREFIX ?? 'museum-ld:',
    store: remoteStoreConfig(parsed),
  };
}

/** The remote store's settings, when STORE_URL is set (companions without it are ignored with the store). */
function remoteStoreConfig(parsed: Parsed): RemoteStoreConfig | undefined {
  if (parsed.STORE_URL === undefined) return undefined;
  const bulkSettings = [parsed.STORE_BULK_DIR, parsed.STORE_ISQL];
  if (bulkSettings.some((v) => v !== undefined) && !bulkSettings.every((v) => v !== undefined)) {
    throw new ConfigError(['STORE_BULK_DIR and STORE_ISQL go together: the bulk loader needs a folder the server reads and its SQL port']);
  }
  if (parsed.STORE_BULK_DIR !== undefined && (parsed.STORE_USER === undefined || parsed.STORE_PASSWORD === undefined)) {
    throw new ConfigError(['STORE_BULK_DIR needs STORE_USER and STORE_PASSWORD: the bulk loader runs as a user of the SQL port (Virtuoso: dba)']);
  }
  if (parsed.SPARQL_STORE_URL !== undefined && parsed.STORE_BULK_DIR !== undefined && parsed.SPARQL_STORE_ISQL === undefined) {
    throw new ConfigError(["SPARQL_STORE_URL with STORE_BULK_DIR needs SPARQL_STORE_ISQL: the bulk publication loads the SPARQL endpoint's server through its SQL port too"]);
  }
  if (parsed.SPARQL_STORE_URL !== undefined && parsed.SPARQL_STORE_URL === parsed.STORE_URL) {
    throw new ConfigError(['SPARQL_STORE_URL names the same server as STORE_URL: leave it unset for one server, or name another']);
  }
  return {
    url: parsed.STORE_URL,
    ...(parsed.STORE_UPDATE_URL === undefined ? {} : { updateUrl: parsed.STORE_UPDATE_URL }),
    ...(parsed.STORE_GRAPH_STORE_URL === undefined ? {} : { graphStoreUrl: parsed.STORE_GRAPH_STORE_URL }),
    ...(parsed.STORE_USER === undefined ? {} : { user: parsed.STORE_USER }),
    ...(parsed.STORE_PASSWORD === undefined ? {} : { password: parsed.STORE_PASSWORD }),
    // Virtuoso's default ResultSetMaxRows (Debian's virtuoso.ini).
    rowLimit: parsed.STORE_ROW_LIMIT ?? 10_000,
    ...(parsed.STORE_BULK_DIR === undefined || parsed.STORE_ISQL === undefined
      ? {}
      : {
          bulk: {
            dir: parsed.STORE_BULK_DIR,
            serverDir: parsed.STORE_BULK_SERVER_DIR ?? parsed.STORE_BULK_DIR,
            isql: parsed.STORE_ISQL,
            isqlBin: parsed.STORE_ISQL_BIN ?? 'isql-vt',
            loaders: parsed.STORE_BULK_LOADERS ?? 2,
          },
        }),
    ...(parsed.SPARQL_STORE_URL === undefined
      ? {}
      : { sparql: { url: parsed.SPARQL_STORE_URL, ...(parsed.SPARQL_STORE_ISQL === undefined ? {} : { isql: parsed.SPARQL_STORE_ISQL }) } }),
  };
}
