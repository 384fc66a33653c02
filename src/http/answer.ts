/**
 * One writer for every cacheable GET/HEAD answer, as Community Solid Server's `GetOperationHandler` is: a handler
 * describes the representation it would send (validators, cache policy, media type, body) and `sendAnswer` sets
 * the validators and either ends the exchange with 304, when the request's own validators match (RFC 9110 §13),
 * or sends the body. A body given as a function is built only for a 200.
 *
 * The body is written with one `res.end`, without Express's `res.send` and the ETag it would hash. A text of
 * {@link LARGE_TEXT} characters or more is encoded once into a Buffer first: Node writes a large string more
 * slowly than its bytes (at 50,000 objects a warm page of 100 full agents, about 300 kB, took 3.6–3.9 ms p50 and
 * 254–290 req/s as a string, 2.3–2.5 ms and 420–426 req/s as a Buffer). A record, a few kB, is written as the
 * string it is, with the headers (as a Buffer it measured no faster: 0.45–0.59 ms p50 either way).
 */
import type { Request, Response } from 'express';
import { isNotModified, recordCacheHeaders, sendNotModified, type Validators } from './caching.js';

export type AnswerBody = string | Buffer;

/** Characters from which a text body is sent as its UTF-8 bytes. */
const LARGE_TEXT = 65_536;

export interface Answer {
  validators: Validators;
  /** Cache-Control; none when undefined (the caller may have set one). */
  cacheControl?: string;
  /** The full media type, charset included. */
  contentType: string;
  /** Further headers of the answer (Link, Content-Location, …), sent with a 304 too. */
  headers?: Readonly<Record<string, string>>;
  body: AnswerBody | (() => AnswerBody | Promise<AnswerBody>);
}

/** Answers `req` with `answer`: 304 when its validators match, else 200 with the body (none for HEAD). */
export async function sendAnswer(req: Request, res: Response, answer: Answer): Promise<void> {
  recordCacheHeaders(res, answer.validators, answer.cacheControl);
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  if (isNotModified(req, answer.validators)) {
    sendNotModified(res);
    return;
  }
  const built = typeof answer.body === 'function' ? await answer.body() : answer.body;
  const body = typeof built === 'string' && built.length >= LARGE_TEXT ? Buffer.from(built, 'utf8') : built;
  res.setHeader('Content-Type', answer.contentType);
  res.setHeader('Content-Length', typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.length);
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}
