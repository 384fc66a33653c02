/**
 * One writer for every cacheable GET/HEAD answer, as Community Solid Server's `GetOperationHandler` is: a handler
 * describes the representation it would send (validators, cache policy, media type, body) and `sendAnswer` sets
 * the validators and either ends the exchange with 304, when the request's own validators match (RFC 9110 §13),
 * or sends the body. A body given as a function is built only for a 200.
 *
 * The body is written with one `res.end`: Express's `res.send` would turn a text of 1,000 characters or more
 * into a Buffer (to hash an ETag the answer has already) and write headers and body as two chunks, which costs
 * measurably more for the small answers most requests get.
 */
import type { Request, Response } from 'express';
import { isNotModified, recordCacheHeaders, sendNotModified, type Validators } from './caching.js';

export type AnswerBody = string | Buffer;

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
  const body = typeof answer.body === 'function' ? await answer.body() : answer.body;
  res.setHeader('Content-Type', answer.contentType);
  res.setHeader('Content-Length', typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.length);
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}
