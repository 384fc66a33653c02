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
    methods: ['GET', 'HEAD', 'OPTIONS'],
    exposedHeaders: [...EXPOSED_HEADERS],
    maxAge: 86_400,
  });
}
