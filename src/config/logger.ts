/**
 * The process logger: pino JSON lines on stdout at the configured level, with secrets censored and text values
 * cut (src/config/redact.ts; the list, the length and the levels are in docs/operations.md, "Logs").
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.js';
import { REDACTED, redactLogValue } from './redact.js';

/** Paths pino censors wherever they appear in a log object (keys in query objects, headers, config). */
const REDACT_PATHS = [
  'apiKey',
  '*.apiKey',
  '*.api_key',
  '*.token',
  '*.access_token',
  'req.headers.authorization',
  'req.headers.cookie',
];

/**
 * Every log object passes the name-family redaction and the cut, whatever code wrote it: pino's own `redact`
 * only knows exact paths, and would miss `password`, `apiKey[]` or a field two levels down.
 */
const formatters = {
  log: (object: Record<string, unknown>): Record<string, unknown> => redactLogValue(object) as Record<string, unknown>,
};

/** Builds the logger the server and CLIs share (on stdout unless given another destination, as benchmarks do). */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  const options = { level: config.logLevel, formatters, redact: { paths: REDACT_PATHS, censor: REDACTED } };
  return destination === undefined ? pino(options) : pino(options, destination);
}
