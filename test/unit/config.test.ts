import { inspect } from 'node:util';
import path from 'node:path';
import { ConfigError, loadConfig, SETTING_NAMES } from '../../src/config/config.js';

/** The one-line message loadConfig throws for `env`, or undefined when it accepts it. */
const problemWith = (env: Record<string, string>): string | undefined => {
  try {
    loadConfig(env);
    return undefined;
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
};

describe('configuration from the environment', () => {
  it('uses the documented defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.baseUrl).toBe('http://localhost:3000');
    expect(config.dataDir).toBe(path.resolve('data'));
    expect(config.rateLimitPerMinute).toBe(10);
    expect(config.logLevel).toBe('info');
    expect(config.sparqlTimeoutMs).toBe(10000);
    expect(config.sparqlMaxRows).toBe(10000);
    expect(config.sparqlMaxConcurrent).toBe(2);
    expect(config.imageHosts).toEqual(['localhost:3000']);
    expect(config.demoObjects).toBe(1000);
    expect(config.demoSeed).toBe(1);
    expect(config.trustProxy).toBe(false);
    expect(config.v1ApiKeys.size).toBe(0);
    expect(config.keepGenerations).toBe(3);
  });

  it('derives the default BASE_URL and image host from PORT', () => {
    const config = loadConfig({ PORT: '8080' });
    expect(config.baseUrl).toBe('http://localhost:8080');
    expect(config.imageHosts).toEqual(['localhost:8080']);
  });

  it('keeps only scheme and host of BASE_URL, without a trailing slash', () => {
    expect(loadConfig({ BASE_URL: 'https://Data.Example.org/' }).baseUrl).toBe('https://data.example.org');
    expect(loadConfig({ BASE_URL: 'https://data.example.org:8443' }).imageHosts).toEqual(['data.example.org:8443']);
  });

  it.each([
    ['https://data.example.org/v2', 'a path'],
    ['https://data.example.org/?x=1', 'a query'],
    ['https://data.example.org#top', 'a fragment'],
    ['ftp://data.example.org', 'another scheme'],
    ['data.example.org', 'no scheme'],
    ['https://user:pw@data.example.org', 'credentials'],
  ])('rejects a BASE_URL with %s (%s) and names the variable', (value) => {
    expect(problemWith({ BASE_URL: value })).toMatch(/^Invalid configuration: BASE_URL must be an http\(s\) URL with scheme and host only/);
  });

  it('names the variable, the accepted form and the value of an invalid number', () => {
    expect(problemWith({ PORT: 'abc' })).toBe('Invalid configuration: PORT must be an integer from 0 to 65535 (got "abc")');
    expect(problemWith({ PORT: '70000' })).toContain('PORT must be an integer from 0 to 65535');
    expect(problemWith({ RATE_LIMIT_PER_MINUTE: '-1' })).toContain('RATE_LIMIT_PER_MINUTE must be an integer from 0');
    expect(problemWith({ SPARQL_TIMEOUT_MS: '1.5' })).toContain('SPARQL_TIMEOUT_MS must be an integer');
    expect(problemWith({ KEEP_GENERATIONS: '0' })).toContain('KEEP_GENERATIONS must be an integer from 1');
  });

  it('accepts 0 as RATE_LIMIT_PER_MINUTE, meaning no limit', () => {
    expect(loadConfig({ RATE_LIMIT_PER_MINUTE: '0' }).rateLimitPerMinute).toBe(0);
  });

  it('accepts the pino log levels and nothing else', () => {
    expect(loadConfig({ LOG_LEVEL: 'warn' }).logLevel).toBe('warn');
    expect(loadConfig({ LOG_LEVEL: 'DEBUG' }).logLevel).toBe('debug');
    expect(problemWith({ LOG_LEVEL: 'verbose' })).toContain(
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")',
    );
  });

  it('reads IMAGE_HOSTS as a comma-separated, lower-cased list of hosts', () => {
    expect(loadConfig({ IMAGE_HOSTS: 'images.example.org, LOCALHOST:3000' }).imageHosts).toEqual([
      'images.example.org',
      'localhost:3000',
    ]);
    expect(problemWith({ IMAGE_HOSTS: 'https://images.example.org/iiif' })).toContain('IMAGE_HOSTS must be');
  });

  it('reads TRUST_PROXY as a boolean, a hop count or a list of addresses and subnets', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8, ::1' }).trustProxy).toEqual(['loopback', '10.0.0.0/8', '::1']);
    expect(problemWith({ TRUST_PROXY: 'yes please' })).toContain('TRUST_PROXY must be true, false, a number of proxy hops');
    expect(problemWith({ TRUST_PROXY: '10.0.0.0/33' })).toContain('TRUST_PROXY must be');
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', BASE_URL: ' ' }).baseUrl).toBe('http://localhost:3000');
  });

  it('reports every problem in one line', () => {
    const message = problemWith({ PORT: 'x', LOG_LEVEL: 'loud' }) ?? '';
    expect(message).toContain('PORT must be');
    expect(message).toContain('LOG_LEVEL must be');
    expect(message).not.toContain('\n');
  });
});

describe('API keys (V1_API_KEYS) are secret', () => {
  const keys = 'k3y-one,k3y-two';

  it('accepts exactly the configured keys', () => {
    const { v1ApiKeys } = loadConfig({ V1_API_KEYS: keys });
    expect(v1ApiKeys.size).toBe(2);
    expect(v1ApiKeys.has('k3y-one')).toBe(true);
    expect(v1ApiKeys.has('k3y-two')).toBe(true);
    expect(v1ApiKeys.has('k3y-thr')).toBe(false);
    expect(v1ApiKeys.has('')).toBe(false);
    expect(v1ApiKeys.has(undefined)).toBe(false);
  });

  it('never shows a key when the configuration is serialised, inspected or interpolated', () => {
    const config = loadConfig({ V1_API_KEYS: keys });
    for (const text of [JSON.stringify(config), inspect(config, { depth: 5 }), `${config.v1ApiKeys}`]) {
      expect(text).not.toContain('k3y');
    }
  });

  it('does not repeat an invalid key in the error message', () => {
    const message = problemWith({ V1_API_KEYS: 'good,bad key' }) ?? '';
    expect(message).toContain('V1_API_KEYS must be a comma-separated list of keys');
    expect(message).not.toContain('bad key');
  });
});

describe('unknown settings', () => {
  it.each([
    ['BASE_URI', 'BASE_URL'],
    ['port', 'PORT'],
    ['RATE_LIMIT_PER_MINUTES', 'RATE_LIMIT_PER_MINUTE'],
    ['TRUSTPROXY', 'TRUST_PROXY'],
    ['V1_API_KEY', 'V1_API_KEYS'],
    ['LOGLEVEL', 'LOG_LEVEL'],
  ])('stops start-up on %s and suggests %s', (typo, meant) => {
    expect(problemWith({ [typo]: '1' })).toContain(`${typo} is not a setting (did you mean ${meant}?)`);
  });

  it.each(['RATE_LIMIT', 'SPARQL_TIMEOUT', 'DEMO_SIZE', 'V1_KEYS_FILE', 'STORE_ENDPOINT'])(
    'stops start-up on %s, whose prefix is reserved for settings',
    (name) => {
      expect(problemWith({ [name]: '5' })).toContain(`${name} is not a setting`);
    },
  );

  it('leaves the variables of the shell, npm, Node and common platforms alone', () => {
    const env = Object.fromEntries(
      [
        'PATH', 'HOME', 'USER', 'PWD', 'SHELL', 'TERM', 'LANG', 'TZ', 'HOSTNAME', 'HOST', 'CI', 'NODE_ENV',
        'NODE_OPTIONS', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'JEST_WORKER_ID', 'INIT_CWD', 'npm_config_loglevel',
        'npm_lifecycle_event', 'DATABASE_URL', 'REDIS_TLS_URL', 'PORT_HTTP', 'DYNO', 'KUBERNETES_SERVICE_PORT', 'TMPDIR',
        'IMAGE_TAG', 'LOGNAME', 'EDITOR', 'COLORTERM', 'SSH_AUTH_SOCK', 'XDG_RUNTIME_DIR', 'BASH_ENV', 'DEBUG',
      ].map((n) => [n, 'x']),
    );
    expect(problemWith(env)).toBeUndefined();
  });

  it('knows every documented setting', () => {
    expect([...SETTING_NAMES].sort()).toEqual(
      [
        'PORT', 'BASE_URL', 'DATA_DIR', 'RATE_LIMIT_PER_MINUTE', 'LOG_LEVEL', 'SPARQL_TIMEOUT_MS', 'SPARQL_MAX_ROWS',
        'SPARQL_MAX_CONCURRENT', 'SPARQL_RESULT_CACHE_MB', 'IMAGE_HOSTS', 'DEMO', 'DEMO_OBJECTS', 'DEMO_SEED', 'TRUST_PROXY', 'V1_API_KEYS',
        'KEEP_GENERATIONS', 'RECORD_CACHE_SIZE', 'V1_SUNSET', 'REDIS_URL', 'REDIS_KEY_PREFIX',
        'STORE_URL', 'STORE_UPDATE_URL', 'STORE_GRAPH_STORE_URL', 'STORE_USER', 'STORE_PASSWORD', 'STORE_ROW_LIMIT',
        'STORE_BULK_DIR', 'STORE_BULK_SERVER_DIR', 'STORE_ISQL', 'STORE_ISQL_BIN', 'STORE_BULK_LOADERS', 'SPARQL_STORE_URL', 'SPARQL_STORE_ISQL',
      ].sort(),
    );
  });
});

describe('DEMO', () => {
  it('is unset by default, true for 1 and true, false for 0 and false, and refuses any other value', () => {
    expect(loadConfig({}).demo).toBeUndefined();
    expect([loadConfig({ DEMO: '1' }).demo, loadConfig({ DEMO: 'true' }).demo]).toEqual([true, true]);
    expect([loadConfig({ DEMO: '0' }).demo, loadConfig({ DEMO: 'false' }).demo]).toEqual([false, false]);
    expect(() => loadConfig({ DEMO: 'yes' })).toThrow(/DEMO must be 1 or 0/);
  });
});

describe('remote store settings', () => {
  it('reads STORE_URL and its companions, and never shows the password', () => {
    const config = loadConfig({ STORE_URL: 'http://127.0.0.1:8890/sparql', STORE_USER: 'museum', STORE_PASSWORD: 's3cret-pw', STORE_ROW_LIMIT: '0' });
    expect(config.store).toMatchObject({ url: 'http://127.0.0.1:8890/sparql', user: 'museum', rowLimit: 0 });
    expect(config.store?.password?.reveal()).toBe('s3cret-pw');
    expect(JSON.stringify(config)).not.toContain('s3cret-pw');
    expect(String(config.store?.password)).not.toContain('s3cret-pw');
    expect(loadConfig({}).store).toBeUndefined();
  });

  it('refuses a STORE_URL that is not an http(s) URL, or one with credentials, without echoing a password', () => {
    expect(() => loadConfig({ STORE_URL: 'ftp://x/sparql' })).toThrow(/STORE_URL must be an http\(s\) URL/);
    expect(() => loadConfig({ STORE_URL: 'http://dba:pw-in-url@127.0.0.1:8890/sparql' })).toThrow(/STORE_URL must be/);
    expect(() => loadConfig({ STORE_URL: 'http://dba:pw-in-url@127.0.0.1:8890/sparql' })).not.toThrow(/pw-in-url/);
    let message = '';
    try {
      loadConfig({ STORE_URL: 'http://127.0.0.1:8890/sparql', STORE_PASSWORD: ' ' , STORE_ROW_LIMIT: '-1' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('STORE_ROW_LIMIT');
  });

  it('reads the bulk loader settings, which go together and need the credentials', () => {
    const store = { STORE_URL: 'http://127.0.0.1:8890/sparql', STORE_USER: 'dba', STORE_PASSWORD: 'pw' };
    expect(loadConfig(store).store?.bulk).toBeUndefined();
    const bulk = loadConfig({ ...store, STORE_BULK_DIR: '/srv/bulk', STORE_ISQL: '127.0.0.1:1111' }).store?.bulk;
    expect(bulk).toEqual({ dir: '/srv/bulk', serverDir: '/srv/bulk', isql: '127.0.0.1:1111', isqlBin: 'isql-vt', loaders: 2 });
    const mounted = loadConfig({ ...store, STORE_BULK_DIR: '/srv/bulk', STORE_BULK_SERVER_DIR: '/data/bulk', STORE_ISQL: 'virtuoso:1111', STORE_BULK_LOADERS: '4' }).store?.bulk;
    expect(mounted).toMatchObject({ serverDir: '/data/bulk', isql: 'virtuoso:1111', loaders: 4 });
    expect(() => loadConfig({ ...store, STORE_BULK_DIR: '/srv/bulk' })).toThrow(/STORE_BULK_DIR and STORE_ISQL go together/);
    expect(() => loadConfig({ ...store, STORE_ISQL: '127.0.0.1:1111' })).toThrow(/STORE_BULK_DIR and STORE_ISQL go together/);
    expect(() => loadConfig({ STORE_URL: store.STORE_URL, STORE_BULK_DIR: '/srv/bulk', STORE_ISQL: '127.0.0.1:1111' })).toThrow(/needs STORE_USER and STORE_PASSWORD/);
    expect(() => loadConfig({ ...store, STORE_BULK_DIR: '/srv/bulk', STORE_ISQL: '127.0.0.1' })).toThrow(/STORE_ISQL must be host:port/);
    expect(() => loadConfig({ ...store, STORE_BULK_DIR: '/srv/bulk', STORE_ISQL: 'h:1', STORE_BULK_SERVER_DIR: "/it's" })).toThrow(/STORE_BULK_SERVER_DIR must be/);
  });

  it("reads the public SPARQL endpoint's own server, which needs its SQL port with bulk publication and may not be STORE_URL's", () => {
    const store = { STORE_URL: 'http://127.0.0.1:8890/sparql', STORE_USER: 'dba', STORE_PASSWORD: 'pw' };
    expect(loadConfig(store).store?.sparql).toBeUndefined();
    expect(loadConfig({ ...store, SPARQL_STORE_URL: 'http://127.0.0.1:8891/sparql' }).store?.sparql).toEqual({ url: 'http://127.0.0.1:8891/sparql' });
    const bulk = { STORE_BULK_DIR: '/srv/bulk', STORE_ISQL: '127.0.0.1:1111' };
    expect(loadConfig({ ...store, ...bulk, SPARQL_STORE_URL: 'http://127.0.0.1:8891/sparql', SPARQL_STORE_ISQL: '127.0.0.1:1112' }).store?.sparql).toEqual({
      url: 'http://127.0.0.1:8891/sparql',
      isql: '127.0.0.1:1112',
    });
    expect(() => loadConfig({ ...store, ...bulk, SPARQL_STORE_URL: 'http://127.0.0.1:8891/sparql' })).toThrow(/needs SPARQL_STORE_ISQL/);
    expect(() => loadConfig({ ...store, SPARQL_STORE_URL: store.STORE_URL })).toThrow(/names the same server as STORE_URL/);
    expect(() => loadConfig({ ...store, SPARQL_STORE_URL: 'ftp://x/sparql' })).toThrow(/SPARQL_STORE_URL/);
    // Without STORE_URL there is no remote store, and so no server for the SPARQL endpoint either.
    expect(loadConfig({ SPARQL_STORE_URL: 'http://127.0.0.1:8891/sparql' }).store).toBeUndefined();
  });
});
