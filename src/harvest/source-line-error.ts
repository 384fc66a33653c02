/** A rejected line of the source export: the harvest stops and its output must be discarded. */
export class SourceLineError extends Error {
  /** `file` is the export's file name (e.g. objects.jsonl), `line` is 1-based. */
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
    this.name = 'SourceLineError';
  }
}
