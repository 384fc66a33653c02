/**
 * The entity tags of a record as issue 28 defines them, computed here from what the client received: pid and
 * harvest time (the real service's `"<pid>-<epoch ms>"`), then a digest of the bytes (SHA-256, base64url, 16
 * characters). An RDF form's digest is over its canonical statements, so only its shape is known here.
 */
import { createHash } from 'node:crypto';

/** The tag of a JSON-LD record body `body`. */
export const jsonRecordEtag = (pid: string, harvestedAt: Date | string, body: string): string =>
  `"${pid}-${new Date(harvestedAt).getTime()}-${createHash('sha256').update(body, 'utf8').digest('base64url').slice(0, 16)}"`;

/** The shape of the tag of an RDF form with file suffix `suffix` (ttl, nt, nq, rdf). */
export const rdfRecordEtag = (pid: string, harvestedAt: Date | string, suffix: string): RegExp =>
  new RegExp(`^"${pid.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-${new Date(harvestedAt).getTime()}-[A-Za-z0-9_-]{16}\\.${suffix}"$`);
