/**
 * Cross-origin access: the API is public and read-only, so any origin may read it, and scripts may see the
 * headers a client needs (validators, pagination links, rate-limit state, redirects).
 */
import cors from 'cors';
import type { RequestHandler } from 'express';

export const EXPOSED_HEADERS = [
  'ETag',
  'Last-Modified',
  'Link',
  'Location',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
] as const;

/** CORS middleware for GET, HEAD and preflight OPTIONS from any origin, without credentials. */
export function corsMiddleware(): RequestHandler {
  return cors({
    origin: '*',
    // POST only for /sparql (SPARQL 1.1 Protocol); every other route answers 405 to it.
    methods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
    exposedHeaders: [...EXPOSED_HEADERS],
    maxAge: 86_400,
  });
}
