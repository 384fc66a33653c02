/** What a kind declares of its single record (src/engine/kind.ts gathers it into the kind; records.ts reads it). */
import type { RawQuery } from '../http/raw-query.js';
import type { JsonObject } from '../shaping/jsonld.js';

/** The single record: where it is served, how it is queried, framed and shaped, and what its answers say. */
export interface RecordDeclaration {
  /** Express paths under /v2 with a `:pid` parameter (the first is canonical). */
  readonly paths: readonly string[];
  /** Library name of the record CONSTRUCT (parameters `record` and `admin`). */
  readonly query: string;
  /**
   * `frames/<frame>.frame.jsonld` (or the file at `frame` when it is an absolute path): its context drives the
   * compiled frame; jsonld.js framing is the reference.
   */
  readonly frame: string;
  /** The kind's shaping rules, applied to the framed record node. */
  shape(framed: JsonObject): JsonObject;
  /**
   * Where a store worker imports `shape` from: the URL of the module that exports it, and the export's name
   * (`shapingExport`). With it, the embedded store shapes the kind's records in the worker that reads them
   * (store/shaped-records.ts); without it, they are shaped on the main thread.
   */
  readonly shapeExport?: { readonly module: string; readonly name: string };
  /** Cache-Control of a 200 (ETag and Last-Modified are always sent); undefined sends none. */
  readonly cacheControl?: string;
  /** Texts of reference/error-bodies.json. */
  readonly messages: { notFound: string; invalidPid: string };
  /** Validates the record endpoint's own query parameters (throws BadRequestError). */
  parseQuery?(query: RawQuery): void;
  /**
   * An optional part of the record asked for by a boolean parameter (objects: `colors=true` adds
   * `crm:P65_shows_visual_item`). Without the parameter the record has none of `keys`; on collections the
   * parameter needs `fullRecord=true`.
   */
  readonly view?: { readonly param: string; readonly keys: readonly string[] };
}
