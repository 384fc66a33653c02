/**
 * The watchdog of a serving process on a remote SPARQL server (docs/operations.md, "When the SPARQL server stops
 * answering"). A hung Virtuoso accepts connections and never answers, so without it every store request waited
 * out its deadline while /readyz said 200. The watchdog asks the server `ASK {}` on a connection of its own
 * (RemoteServer.probe) every second; after two probes in a row without an answer within 3.5 s it marks the server
 * silent (requests in flight are aborted, new ones fail at once with StoreUnavailableError, the stores are not
 * ready), and the first answer marks it answering again. Worst case from the hang to /readyz 503: a probe that
 * starts up to 1 s after it, then two timeouts of 3.5 s (the second probe follows the first failure at once),
 * about 8 s. A server that is down answers the probes at once with a refused connection, so that is seen within
 * about 1 s. Silence means 7 s without an answer because a server that loads a generation while it serves
 * pauses for seconds (its `checkpoint`): the soak at 100,000 objects saw `ASK {}` take 5.4 s then, and with
 * probes of 2 s the replicas answered 503 for 6 s to requests the server would have answered.
 * Data commands (harvest, load) never start one: they fail on their own deadlines.
 */
import { EventEmitter } from 'node:events';
import type { RemoteServer } from './remote-server.js';

/** Milliseconds between probes while the server answers, and between probes while it does not. */
export const PROBE_INTERVAL_MS = 1_000;
/** Milliseconds a probe waits for the answer to `ASK {}`. */
export const PROBE_TIMEOUT_MS = 3_500;
/** Failed probes in a row that mark the server silent: one slow answer is not an outage. */
export const PROBE_FAILURES = 2;

export interface WatchdogOptions {
  intervalMs?: number;
  timeoutMs?: number;
  failures?: number;
}

/**
 * Probes a remote server and marks it silent or answering; `start` in a serving process, `stop` at shutdown.
 * Events: 'silent' (reason) when it marks the server silent, 'answering' when it answers again.
 */
export class ServerWatchdog extends EventEmitter {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private failed = 0;

  constructor(
    private readonly server: RemoteServer,
    private readonly options: WatchdogOptions = {},
  ) {
    super();
  }

  /** Starts probing at once. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Stops probing; the server keeps its last state. */
  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    // Unreferenced: the watchdog alone never keeps a process alive.
    this.timer = setTimeout(() => void this.check(), delayMs).unref();
  }

  private async check(): Promise<void> {
    const { server, options } = this;
    const failures = options.failures ?? PROBE_FAILURES;
    try {
      await server.probe(options.timeoutMs ?? PROBE_TIMEOUT_MS);
      this.failed = 0;
      if (!server.answering && this.running) {
        server.markAnswering();
        this.emit('answering');
      }
      this.schedule(options.intervalMs ?? PROBE_INTERVAL_MS);
    } catch (err) {
      this.failed++;
      const reason = (err as Error).message;
      if (this.failed >= failures && server.answering && this.running) {
        server.markSilent(reason);
        this.emit('silent', reason);
      }
      // Until the server counts as silent, the next probe follows at once, so that a hang is seen soon.
      this.schedule(server.answering ? 0 : (options.intervalMs ?? PROBE_INTERVAL_MS));
    }
  }
}
