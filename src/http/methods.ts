/** Read-only paths: any method other than the listed ones is 405 with an Allow header. */
import type { RequestHandler } from 'express';
import { MethodNotAllowedError } from './errors.js';

/** Middleware that rejects methods not in `methods` (GET implies HEAD in Express). */
export function allowMethods(methods: readonly string[]): RequestHandler {
  const allowed = new Set(methods);
  return (req, _res, next) => {
    next(allowed.has(req.method) ? undefined : new MethodNotAllowedError(methods));
  };
}
