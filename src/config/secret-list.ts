/**
 * A list of secrets (API keys) that can be checked but never shown: JSON, `util.inspect`, pino and string
 * conversion all print a placeholder, so logging a whole `Config` cannot leak a key.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { inspect } from 'node:util';

const REDACTED = '[REDACTED]';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

export class SecretList {
  // A private field is invisible to JSON.stringify, Object.keys and structured logging.
  readonly #digests: readonly Buffer[];

  constructor(values: readonly string[]) {
    this.#digests = values.map(digest);
  }

  /** How many secrets the list holds (safe to log). */
  get size(): number {
    return this.#digests.length;
  }

  /** True when `candidate` is one of the secrets; compares digests in constant time. */
  has(candidate: string | undefined): boolean {
    if (candidate === undefined || candidate === '') return false;
    const probe = digest(candidate);
    let found = false;
    // Check every entry so the time taken does not reveal which key matched.
    for (const d of this.#digests) found = timingSafeEqual(d, probe) || found;
    return found;
  }

  /** The placeholder that JSON serialisation (and so pino) writes instead of the secrets. */
  toJSON(): string {
    return `${REDACTED} (${this.size})`;
  }

  /** The placeholder, for template strings. */
  toString(): string {
    return this.toJSON();
  }

  /** The placeholder, for console.log and util.inspect. */
  [inspect.custom](): string {
    return this.toJSON();
  }
}
