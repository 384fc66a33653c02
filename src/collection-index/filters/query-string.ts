/** Writing a collection's query parameters back into links and `@id`s. */

/**
 * A query string for links and `@id`s: values percent-encoded as by encodeURIComponent, with `(` and `)`
 * encoded too (the real service's links) and `/` kept readable (`date=1900/1909`, as the spec writes it).
 */
export function queryString(params: readonly (readonly [string, string])[]): string {
  return params
    .map(([name, value]) => `${name}=${encodeURIComponent(value).replace(/\(/g, '%28').replace(/\)/g, '%29').replace(/%2F/g, '/')}`)
    .join('&');
}

export const withQuery = (url: string, params: readonly (readonly [string, string])[]): string => (params.length === 0 ? url : `${url}?${queryString(params)}`);
