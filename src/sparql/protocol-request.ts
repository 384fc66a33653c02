/**
 * Reads a SPARQL 1.1 Protocol query operation from an HTTP request (§2.1): GET with `query=` in the URL,
 * POST of `application/x-www-form-urlencoded` (`query=` in the body) or of `application/sparql-query` (the
 * body is the query), with `default-graph-uri` / `named-graph-uri` in the URL or the form. Any update
 * operation (`update=`, `using-graph-uri=`, `using-named-graph-uri=`, an `application/sparql-update` body) is
 * refused with 403; malformed requests with 400, other media types and charsets with 415. Text must be UTF-8.
 */
import type { Request } from 'express';
import { BadRequestError, ForbiddenError, HttpError } from '../http/errors.js';
import { UPDATE_REFUSED, type ProtocolDataset } from './query-policy.js';

/** What the request asks: a query with its protocol dataset, or nothing (GET without `query=`). */
export type ProtocolOperation = ({ kind: 'query'; query: string } & ProtocolDataset) | { kind: 'none' };

const FORM = 'application/x-www-form-urlencoded';
const QUERY_BODY = 'application/sparql-query';
const UPDATE_BODY = 'application/sparql-update';
const UPDATE_PARAMS = ['update', 'using-graph-uri', 'using-named-graph-uri'] as const;

/** 415 Unsupported Media Type, for POST bodies the protocol does not define. */
export class UnsupportedMediaTypeError extends HttpError {
  constructor(message: string) {
    super(415, message);
  }
}

type Params = Map<string, string[]>;

/** Strict `application/x-www-form-urlencoded` parsing: bad percent-encoding or non-UTF-8 bytes are a 400. */
export function parseFormEncoded(text: string): Params {
  const params: Params = new Map();
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const [rawName, rawValue] = eq < 0 ? [part, ''] : [part.slice(0, eq), part.slice(eq + 1)];
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
    } catch {
      throw new BadRequestError('Malformed URL encoding: parameters must be percent-encoded UTF-8.');
    }
    params.set(name, [...(params.get(name) ?? []), value]);
  }
  return params;
}

/** Decodes a body as UTF-8, refusing invalid byte sequences. */
function utf8(body: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(body);
  } catch {
    throw new BadRequestError('The request body is not valid UTF-8.');
  }
}

/** Media type (lower case) and charset parameter of a Content-Type header. */
function contentType(header: string | undefined): { type: string | undefined; charset: string | undefined } {
  if (header === undefined || header.trim() === '') return { type: undefined, charset: undefined };
  const [type = '', ...params] = header.split(';');
  const charset = params
    .map((p) => p.trim().split('='))
    .find(([name]) => name?.trim().toLowerCase() === 'charset')?.[1]
    ?.trim()
    .replace(/^"(.*)"$/, '$1')
    .toLowerCase();
  return { type: type.trim().toLowerCase(), charset };
}

const ABSOLUTE_IRI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>"{}|\\^`]*$/;

function graphIris(params: readonly Params[], name: string): string[] {
  const iris = params.flatMap((p) => p.get(name) ?? []);
  for (const iri of iris) {
    if (!ABSOLUTE_IRI.test(iri)) throw new BadRequestError(`${name} must be an absolute IRI, not ${JSON.stringify(iri)}.`);
  }
  return iris;
}

/** The URL's query string parameters, parsed as strictly as a form body. */
function urlParams(req: Request): Params {
  const url = req.originalUrl;
  const q = url.indexOf('?');
  return parseFormEncoded(q < 0 ? '' : url.slice(q + 1));
}

/** Reads the operation of a GET, HEAD or POST request; a POST body must already be a Buffer (express.raw). */
export function readOperation(req: Request): ProtocolOperation {
  const inUrl = urlParams(req);
  const sources: Params[] = [inUrl];
  const queries = [...(inUrl.get('query') ?? [])];

  if (req.method === 'POST') {
    const { type, charset } = contentType(req.headers['content-type']);
    if (type === UPDATE_BODY) throw new ForbiddenError(UPDATE_REFUSED);
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      throw new UnsupportedMediaTypeError(`Only UTF-8 is accepted, not charset=${charset}.`);
    }
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    if (type === FORM) {
      const form = parseFormEncoded(utf8(body));
      sources.push(form);
      queries.push(...(form.get('query') ?? []));
    } else if (type === QUERY_BODY) {
      queries.push(utf8(body));
    } else {
      throw new UnsupportedMediaTypeError(
        `POST a query as ${FORM} (query=...) or as ${QUERY_BODY}; ${type === undefined ? 'no Content-Type was given' : `not ${type}`}.`,
      );
    }
  }

  if (UPDATE_PARAMS.some((name) => sources.some((p) => p.has(name)))) throw new ForbiddenError(UPDATE_REFUSED);
  if (queries.length > 1) throw new BadRequestError('Give exactly one query (the request has several).');
  const query = queries[0];
  if (query === undefined) {
    if (req.method === 'POST') throw new BadRequestError('The request has no query.');
    return { kind: 'none' };
  }
  if (query.trim() === '') throw new BadRequestError('The query is empty.');
  return { kind: 'query', query, defaultGraphs: graphIris(sources, 'default-graph-uri'), namedGraphs: graphIris(sources, 'named-graph-uri') };
}
