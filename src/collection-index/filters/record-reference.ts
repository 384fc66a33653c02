/** Reading a record reference given as a pid or as a record URI (of this or any deployment). */
import { isValidPid, type Iris, type RecordKind } from '../../vocab/iris.js';

/**
 * The IRI of the `kind` record named by `value`: a pid, or a URI whose path is `/v2/id/<kind>/<pid>`. Any
 * other value names no record (undefined), which filters to nothing rather than failing.
 */
export function recordIri(iris: Iris, kind: RecordKind, value: string): string | undefined {
  if (isValidPid(kind, value)) return iris.record(kind, value);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  const prefix = `/v2/id/${kind}/`;
  if (!url.pathname.startsWith(prefix)) return undefined;
  let pid: string;
  try {
    pid = decodeURIComponent(url.pathname.slice(prefix.length));
  } catch {
    return undefined;
  }
  return isValidPid(kind, pid) ? iris.record(kind, pid) : undefined;
}
