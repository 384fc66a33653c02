/**
 * Removes credentials from URLs before they are logged: the v1 restricted endpoints take `apiKey` in the
 * query string (spec, Authentication), and keys must never reach a log.
 */

/** Query parameter names whose values are secrets, compared case-insensitively. */
export const SECRET_PARAMETERS: ReadonlySet<string> = new Set(['apikey', 'api_key', 'key', 'token', 'access_token']);

export const REDACTED = '[REDACTED]';

const decodeName = (raw: string): string => {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
};

/** The query string (without `?`) with the values of secret parameters replaced, order and encoding kept. */
export function redactQuery(query: string): string {
  if (query === '') return query;
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      return SECRET_PARAMETERS.has(decodeName(name).trim().toLowerCase()) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
}

/** Splits a request URL into its path and its redacted query string (`''` when there is none). */
export function redactUrl(url: string): { path: string; query: string } {
  const q = url.indexOf('?');
  if (q === -1) return { path: url, query: '' };
  return { path: url.slice(0, q), query: redactQuery(url.slice(q + 1)) };
}
