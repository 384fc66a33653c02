/**
 * A connection URL that may carry a password (`REDIS_URL`): the code that connects asks for it with
 * `reveal()`; JSON, `util.inspect`, pino and string conversion all print it with the user information
 * replaced by a placeholder, so logging a whole `Config` or the URL itself cannot leak the password.
 */
import { inspect } from 'node:util';

const REDACTED = '[REDACTED]';

export class SecretUrl {
  // A private field is invisible to JSON.stringify, Object.keys and structured logging.
  readonly #href: string;
  readonly #shown: string;

  constructor(href: string) {
    this.#href = href;
    const url = new URL(href);
    const hadCredentials = url.username !== '' || url.password !== '';
    url.username = '';
    url.password = '';
    // `redis://[REDACTED]@host:6379`: the host is safe to log and is what an operator needs to see.
    this.#shown = hadCredentials ? url.href.replace('//', `//${REDACTED}@`) : url.href;
  }

  /** The URL with its credentials, for the client that connects; never log it. */
  reveal(): string {
    return this.#href;
  }

  /** The URL without credentials, for JSON serialisation (and so pino). */
  toJSON(): string {
    return this.#shown;
  }

  /** The URL without credentials, for template strings. */
  toString(): string {
    return this.#shown;
  }

  /** The URL without credentials, for console.log and util.inspect. */
  [inspect.custom](): string {
    return this.#shown;
  }
}
