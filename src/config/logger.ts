/** The process logger: pino JSON lines on stdout at the configured level, with secrets censored. */
import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.js';

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

/** Builds the logger the server and CLIs share (on stdout unless given another destination, as benchmarks do). */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  const options = { level: config.logLevel, redact: { paths: REDACT_PATHS, censor: '[REDACTED]' } };
  return destination === undefined ? pino(options) : pino(options, destination);
}
