/**
 * Validators and freshness for cacheable documents (spec, single entities: ETag, Last-Modified,
 * Cache-Control: public, max-age=3600) and the evaluation of conditional GET/HEAD requests (RFC 9110 §13).
 */
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

export const RECORD_CACHE_CONTROL = 'public, max-age=3600';

export interface Validators {
  /** A complete entity tag, quotes included (`W/"..."` or `"..."`). */
  etag: string;
  /** Last change of the representation; sent as an HTTP date, compared at one-second precision. */
  lastModified?: Date;
}

/**
 * A weak entity tag over `parts` (such as pid and harvest time). Weak, because the same record is sent
 * gzip-compressed or not and with keys in a stable but not byte-identical order across versions.
 */
export function weakEtag(...parts: readonly string[]): string {
  const hash = createHash('sha256').update(parts.join('\u0000'), 'utf8').digest('base64url').slice(0, 27);
  return `W/"${hash}"`;
}

/** Sets ETag, Last-Modified and, when given, Cache-Control on `res`. */
export function recordCacheHeaders(res: Response, validators: Validators, cacheControl: string | undefined): void {
  res.setHeader('ETag', validators.etag);
  if (validators.lastModified !== undefined) res.setHeader('Last-Modified', validators.lastModified.toUTCString());
  if (cacheControl !== undefined) res.setHeader('Cache-Control', cacheControl);
}

/** The opaque part of an entity tag, for weak comparison (RFC 9110 §8.8.3.2). */
const opaque = (tag: string): string => tag.trim().replace(/^W\//, '');

/** Splits an If-None-Match value into entity tags; commas may occur inside quoted tags. */
const parseEtagList = (header: string): string[] => header.match(/(?:W\/)?"[^"]*"|\*/g) ?? [];

/**
 * True when a GET or HEAD request's validators match, so a 304 may be sent. If-None-Match, when present,
 * decides alone (RFC 9110 §13.2.2: If-Modified-Since is then ignored); `*` matches any current representation.
 */
export function isNotModified(req: Request, validators: Validators): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    const tags = parseEtagList(ifNoneMatch);
    if (tags.includes('*')) return true;
    const mine = opaque(validators.etag);
    return tags.some((t) => opaque(t) === mine);
  }
  const ifModifiedSince = req.headers['if-modified-since'];
  if (ifModifiedSince === undefined || validators.lastModified === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  if (Number.isNaN(since)) return false;
  // HTTP dates have one-second precision; compare the representation's time at that precision too.
  return Math.floor(validators.lastModified.getTime() / 1000) * 1000 <= since;
}

/** Ends the response with 304 Not Modified (the validators set by `recordCacheHeaders` stay). */
export function sendNotModified(res: Response): void {
  res.removeHeader('Content-Type');
  res.removeHeader('Content-Length');
  res.status(304).end();
}
