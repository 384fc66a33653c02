/**
 * Keeps secrets out of the logs and log lines bounded: the v1 restricted endpoints take `apiKey` in the query
 * string (spec, Authentication), clients send keys under other names and spellings (`apiKey[]`, `api-key`,
 * `password`), and a client's 13 KB query string must not become a 13 KB log line. The list, the cut length and
 * the log levels are documented in docs/operations.md ("Logs").
 */

/**
 * Names (lower case, without `-`, `_`, `.` and spaces) whose values are secrets wherever they appear: as a query
 * parameter, as one segment of a bracketed or dotted name (`apiKey[0]`, `user[password]`), or as a field of a
 * logged object.
 */
export const SECRET_NAMES: ReadonlySet<string> = new Set([
  'apikey',
  'key',
  'token',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'auth',
  'authorization',
  'password',
  'passwd',
  'pwd',
  'secret',
  'clientsecret',
  'credential',
  'credentials',
  'cookie',
  'session',
  'sessionid',
  'signature',
  'sig',
  'jwt',
  'privatekey',
]);

/** Endings that make any name secret too (`x-api-key`, `db_password`, `client_secret`, `refresh-token`). */
export const SECRET_SUFFIXES: readonly string[] = ['apikey', 'token', 'password', 'passwd', 'secret'];

export const REDACTED = '[REDACTED]';

/** Most characters of a query string, path or other text value written to one log line (before the marker). */
export const LOG_TEXT_MAX = 1024;

/**
 * A name as the application would read it: `+` as a space, and every well-formed `%XX` run decoded even when
 * another part of the name is malformed (`apiKey%00%ZZ` is still `apiKey` and a NUL).
 */
const decodeName = (raw: string): string =>
  raw.replace(/\+/g, ' ').replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });

/**
 * Characters that are no part of a name as a reader sees it: control characters (NUL included), format characters
 * (zero-width spaces, bidirectional marks) and separators. `apiKey%00=…` was logged in clear: its decoded name,
 * `apiKey` and a NUL, was on no list.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Z}]/gu;

/**
 * One name segment as compared with the list: compatibility forms folded (fullwidth letters), lower case,
 * invisible characters and separators dropped (`API-Key` and `api\0key` → `apikey`).
 */
const normalise = (segment: string): string => segment.normalize('NFKC').toLowerCase().replace(INVISIBLE, '').replace(/[-_.\s]/g, '');

/** True when one segment, as a whole or in any of its parts between invisible characters, is a secret's name. */
const isSecretSegment = (part: string): boolean =>
  [part, ...part.split(INVISIBLE)].some((piece) => {
    const segment = normalise(piece);
    return segment !== '' && (SECRET_NAMES.has(segment) || SECRET_SUFFIXES.some((suffix) => segment.endsWith(suffix)));
  });

/**
 * True when a parameter or field name is a secret's: the name is split at brackets and dots (`apiKey[x][y]`
 * gives `apiKey`, `x`, `y`), and any segment that is on SECRET_NAMES or ends with one of SECRET_SUFFIXES counts,
 * with control and other invisible characters dropped or taken as a cut (`apiKey%00`, `key%00x`).
 * Percent-encoded names are decoded first, so `api%5Fkey` and `apiKey%5B%5D` are caught as well.
 */
export function isSecretName(name: string): boolean {
  return decodeName(name).split(/[[\].]/).some(isSecretSegment);
}

/** The query string (without `?`) with the values of secret parameters replaced, order and encoding kept. */
export function redactQuery(query: string): string {
  if (query === '') return query;
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      return isSecretName(name) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
}

/** The marker cutForLog appends; its length bounds what a cut adds to the limit. */
const CUT_MARKER = /…\[\d{1,16} more characters cut\]$/;
const CUT_MARKER_MAX = '…[9999999999999999 more characters cut]'.length;

/**
 * `text` cut to `max` characters plus a marker naming how many were cut, or `text` itself when short enough
 * or already cut (the request log cuts, then the logger's formatter sees the same string again).
 */
export function cutForLog(text: string, max = LOG_TEXT_MAX): string {
  if (text.length <= max) return text;
  if (text.length <= max + CUT_MARKER_MAX && CUT_MARKER.test(text)) return text;
  // Never end on the first half of a surrogate pair: the line would carry a lone surrogate.
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, end)}…[${text.length - end} more characters cut]`;
}

/**
 * Splits a request URL into its path and its redacted query string (`''` when there is none), both cut for the
 * log: this is what the request log and the error handler write, never the raw URL.
 */
export function redactUrl(url: string): { path: string; query: string } {
  const q = url.indexOf('?');
  if (q === -1) return { path: cutForLog(url), query: '' };
  return { path: cutForLog(url.slice(0, q)), query: cutForLog(redactQuery(url.slice(q + 1))) };
}

/** How deep redactLogValue looks into nested objects; log objects are shallow, this only bounds the walk. */
const MAX_DEPTH = 6;

const isPlainObject = (value: object): value is Record<string, unknown> => {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/**
 * A copy of a value about to be logged, with every field whose name is a secret's replaced and every string
 * cut to LOG_TEXT_MAX. Only plain objects and arrays are copied: errors, and classes such as SecretList that
 * print their own placeholder, are left to pino's serialisers.
 */
export function redactLogValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return cutForLog(value);
  if (typeof value !== 'object' || value === null || depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item: unknown) => redactLogValue(item, depth + 1));
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    copy[name] = isSecretName(name) && field !== undefined && field !== null ? REDACTED : redactLogValue(field, depth + 1);
  }
  return copy;
}
