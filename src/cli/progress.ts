/**
 * Progress of a long data command on stderr (stdout keeps the summary): a cli-progress bar with rate and
 * ETA on a terminal, and a plain line every few seconds and at the end of each phase otherwise (CI, logs).
 */
import cliProgress from 'cli-progress';

export type Unit = 'bytes' | 'records' | 'images';

export interface ProgressUpdate {
  phase: string;
  done: number;
  total?: number;
  unit: Unit;
  /** Extra text, such as a count of quads written. */
  detail?: string;
  /** What the rate counts when not `done` (a load reads bytes but people think in quads). */
  rateOf?: { count: number; unit: string };
}

export interface Progress {
  update(p: ProgressUpdate): void;
  /** Ends the current bar or writes the last line of the current phase. */
  stop(): void;
  /** Ends the current bar without a last line (the command failed). */
  abort(): void;
}

const LOG_EVERY_MS = 5000;

/** Formats a count of `unit` for people: 12.3 MB, 45,678 records. */
export function formatAmount(n: number, unit: Unit): string {
  if (unit !== 'bytes') return `${Math.round(n).toLocaleString('en')} ${unit}`;
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let i = 0;
  for (; n >= 1000 && i < units.length - 1; i++) n /= 1000;
  return `${n.toFixed(i === 0 ? 0 : 1)} ${units[i]}`;
}

function formatSeconds(s: number): string {
  if (!Number.isFinite(s)) return '?';
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 60) return `${Math.round(s)} s`;
  return `${Math.floor(s / 60)} min ${Math.ceil(s % 60)} s`;
}

/** Progress for the command `name`; bars when `stream` is a terminal. */
export function createProgress(name: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  return stream.isTTY ? new BarProgress(stream) : new LineProgress(name, stream);
}

interface PhaseState {
  phase: string;
  started: number;
  last: ProgressUpdate;
}

function rateOf(state: PhaseState): string {
  const seconds = (Date.now() - state.started) / 1000;
  if (seconds <= 0) return '';
  const { rateOf: custom, done, unit } = state.last;
  return custom ? `${Math.round(custom.count / seconds).toLocaleString('en')} ${custom.unit}/s` : `${formatAmount(done / seconds, unit)}/s`;
}

class BarProgress implements Progress {
  private bar: cliProgress.SingleBar | undefined;
  private state: PhaseState | undefined;

  constructor(private readonly stream: NodeJS.WriteStream) {}

  update(p: ProgressUpdate): void {
    if (this.state?.phase !== p.phase) {
      this.stop();
      this.state = { phase: p.phase, started: Date.now(), last: p };
      this.bar = new cliProgress.SingleBar(
        {
          stream: this.stream,
          format: p.total === undefined ? '{phase} {done} | {rate} {detail}' : '{phase} [{bar}] {percentage}% | {done} of {all} | {rate} | ETA {eta_formatted} {detail}',
          etaBuffer: 50,
          hideCursor: true,
          formatTime: (t) => formatSeconds(t),
        },
        cliProgress.Presets.shades_classic,
      );
      this.bar.start(p.total ?? 0, p.done, this.payload(p));
      return;
    }
    this.state.last = p;
    if (p.total !== undefined) this.bar?.setTotal(p.total);
    this.bar?.update(p.done, this.payload(p));
  }

  stop(): void {
    this.bar?.stop();
    this.bar = undefined;
    this.state = undefined;
  }

  abort(): void {
    this.stop();
  }

  private payload(p: ProgressUpdate): Record<string, string> {
    const rate = this.state ? rateOf(this.state) : '';
    return {
      phase: p.phase.padEnd(7),
      done: formatAmount(p.done, p.unit),
      all: p.total === undefined ? '?' : formatAmount(p.total, p.unit),
      rate,
      detail: p.detail ?? '',
    };
  }
}

class LineProgress implements Progress {
  private state: PhaseState | undefined;
  private lastLog = 0;

  constructor(
    private readonly name: string,
    private readonly stream: NodeJS.WriteStream,
  ) {}

  update(p: ProgressUpdate): void {
    if (this.state?.phase !== p.phase) {
      this.stop();
      this.state = { phase: p.phase, started: Date.now(), last: p };
      this.lastLog = Date.now();
      return;
    }
    this.state.last = p;
    if (Date.now() - this.lastLog >= LOG_EVERY_MS) {
      this.lastLog = Date.now();
      this.write(this.state, false);
    }
  }

  stop(): void {
    if (this.state) this.write(this.state, true);
    this.state = undefined;
  }

  abort(): void {
    this.state = undefined;
  }

  private write(state: PhaseState, finished: boolean): void {
    const { last } = state;
    const elapsed = (Date.now() - state.started) / 1000;
    const parts = [`${this.name}: ${state.phase}`, formatAmount(last.done, last.unit)];
    if (last.total !== undefined && last.total > 0 && !finished) {
      parts[1] += ` of ${formatAmount(last.total, last.unit)} (${Math.floor((100 * last.done) / last.total)}%)`;
      const rate = last.done / Math.max(elapsed, 0.001);
      parts.push(`ETA ${formatSeconds((last.total - last.done) / Math.max(rate, 1e-9))}`);
    }
    parts.push(rateOf(state));
    if (finished) parts.push(`done in ${formatSeconds(elapsed)}`);
    if (last.detail) parts.push(last.detail);
    this.stream.write(`${parts.filter((x) => x !== '').join(', ')}\n`);
  }
}
