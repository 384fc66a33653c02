/**
 * The credential of the restricted v1 paths (spec, Authentication): `apiKey` in the query string, checked
 * against the configured keys, which are kept as digests and compared in constant time (SecretList). Without a
 * key 401, with a wrong one 403; every answer of a keyed path, refusals included, is `Cache-Control: no-store`.
 * The key is never written back: not in a body, not in a link, and the request log redacts it.
 */
import type { RequestHandler } from 'express';
import type { SecretList } from '../config/secret-list.js';
import { BadRequestError, ForbiddenError, UnauthorizedError } from '../http/errors.js';

/** Exact text of reference/error-bodies.json (private_stream_401). */
export const KEY_MISSING = 'Authentication key is missing or invalid. This stream is only available via authentication.';
export const KEY_WRONG = 'Authentication key is not valid. This stream is only available via authentication.';

const NO_STORE = { 'Cache-Control': 'no-store' } as const;

/** Lets a request through only with one of `keys` as its `apiKey`. */
export function requireApiKey(keys: SecretList): RequestHandler {
  return (req, res, next) => {
    res.locals.keyed = true;
    res.setHeader('Cache-Control', 'no-store');
    const key: unknown = req.query.apiKey;
    if (key === undefined || key === '') throw new UnauthorizedError(KEY_MISSING, { headers: NO_STORE });
    if (typeof key !== 'string') throw new BadRequestError('Invalid apiKey: give it once.', { headers: NO_STORE });
    if (!keys.has(key)) throw new ForbiddenError(KEY_WRONG, { headers: NO_STORE });
    next();
  };
}
