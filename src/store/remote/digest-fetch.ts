/**
 * fetch with HTTP digest authentication, which Node's fetch lacks: Virtuoso's write endpoints
 * (`/sparql-auth`, `/sparql-graph-crud-auth`) offer nothing else (MD5, qop=auth). See docs/virtuoso-notes.md.
 */
import { createHash, randomBytes } from 'node:crypto';

const md5 = (s: string): string => createHash('md5').update(s).digest('hex');

interface DigestChallenge {
  realm: string;
  nonce: string;
  opaque?: string;
  qop?: string;
  algorithm?: string;
  nc: number;
}

function parseDigestChallenge(header: string): DigestChallenge | undefined {
  if (!/^Digest\s/i.test(header)) return undefined;
  const params: Record<string, string> = {};
  for (const m of header.slice(7).matchAll(/(\w+)=(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g)) {
    params[m[1]!.toLowerCase()] = m[2] ?? m[3] ?? '';
  }
  if (params.realm === undefined || params.nonce === undefined) return undefined;
  return { realm: params.realm, nonce: params.nonce, opaque: params.opaque, qop: params.qop, algorithm: params.algorithm, nc: 0 };
}

/**
 * fetch with HTTP digest authentication (RFC 7616, MD5, qop=auth; what Virtuoso's `-auth` endpoints ask for).
 * The first request without a known challenge is preceded by a bodiless GET that fetches one, so a large body
 * is sent once; later requests reuse the nonce with a rising nonce count, and a 401 (stale nonce) is retried
 * once with the new challenge. `init.body` must be re-sendable (a string or bytes).
 */
export function digestFetch(
  user: string,
  password: string,
  transport: (url: URL, init: RequestInit) => Promise<Response> = (url, init) => fetch(url, init),
): (url: string, init?: RequestInit) => Promise<Response> {
  let challenge: DigestChallenge | undefined;

  const authorization = (method: string, url: URL, c: DigestChallenge): string => {
    const uri = url.pathname + url.search;
    const ha1 = md5(`${user}:${c.realm}:${password}`);
    const ha2 = md5(`${method}:${uri}`);
    const parts = [`username="${user}"`, `realm="${c.realm}"`, `nonce="${c.nonce}"`, `uri="${uri}"`];
    if (c.qop !== undefined && c.qop.split(/\s*,\s*/).includes('auth')) {
      c.nc += 1;
      const nc = c.nc.toString(16).padStart(8, '0');
      const cnonce = randomBytes(8).toString('hex');
      parts.push('qop=auth', `nc=${nc}`, `cnonce="${cnonce}"`, `response="${md5(`${ha1}:${c.nonce}:${nc}:${cnonce}:auth:${ha2}`)}"`);
    } else {
      parts.push(`response="${md5(`${ha1}:${c.nonce}:${ha2}`)}"`);
    }
    if (c.opaque !== undefined) parts.push(`opaque="${c.opaque}"`);
    parts.push(`algorithm=${c.algorithm ?? 'MD5'}`);
    return `Digest ${parts.join(', ')}`;
  };

  const challengeOf = async (response: Response): Promise<DigestChallenge> => {
    await response.arrayBuffer().catch(() => undefined);
    const c = parseDigestChallenge(response.headers.get('www-authenticate') ?? '');
    if (c === undefined) throw new Error(`digestFetch: ${response.status} without a Digest challenge from ${response.url}`);
    return c;
  };

  return async (input: string, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input);
    const method = (init.method ?? 'GET').toUpperCase();
    const send = (c: DigestChallenge): Promise<Response> => {
      const headers = new Headers(init.headers);
      headers.set('authorization', authorization(method, url, c));
      return transport(url, { ...init, method, headers });
    };
    if (challenge === undefined) {
      const probe = await transport(url, { method: 'GET', ...(init.signal ? { signal: init.signal } : {}) });
      if (probe.status !== 401) {
        await probe.arrayBuffer().catch(() => undefined);
        throw new Error(`digestFetch: expected 401 with a challenge from ${url.href}, got ${probe.status}`);
      }
      challenge = await challengeOf(probe);
    }
    const response = await send(challenge);
    if (response.status !== 401) return response;
    challenge = await challengeOf(response);
    return send(challenge);
  };
}
