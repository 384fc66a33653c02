/**
 * One secret value (a password) that prints as a placeholder: JSON, `util.inspect`, pino and string
 * conversion never show it; only `reveal()` does, at the one place that sends it.
 */
import { inspect } from 'node:util';

const REDACTED = '[REDACTED]';

export class Secret {
  // A private field is invisible to JSON.stringify, Object.keys and structured logging.
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toJSON(): string {
    return REDACTED;
  }

  toString(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return REDACTED;
  }
}
