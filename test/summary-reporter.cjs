/**
 * Prints the run's totals as one plain line, `tests: N passed, N failed, N skipped`, after jest's own
 * summary: the form CI tooling reads in any language. Before it, the slowest test files with their seconds and
 * the sum over all files (worker-seconds), so that a CI log says where the run's time went.
 */
const SLOWEST = 12;

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const files = results.testResults
      .map((r) => ({ file: r.testFilePath.replace(`${process.cwd()}/`, ''), seconds: (r.perfStats.end - r.perfStats.start) / 1000 }))
      .filter((f) => Number.isFinite(f.seconds) && f.seconds >= 0)
      .sort((a, b) => b.seconds - a.seconds);
    const total = files.reduce((sum, f) => sum + f.seconds, 0);
    const wall = (Date.now() - results.startTime) / 1000;
    process.stdout.write(`\nslowest test files (of ${files.length}; ${total.toFixed(0)} worker-seconds in ${wall.toFixed(0)} s):\n`);
    for (const f of files.slice(0, SLOWEST)) process.stdout.write(`  ${f.seconds.toFixed(1).padStart(7)} s  ${f.file}\n`);
    // TEST_TIMES_FILE=path writes every file's seconds there (one "seconds file" line each), for a whole profile.
    if (process.env.TEST_TIMES_FILE) require('node:fs').writeFileSync(process.env.TEST_TIMES_FILE, files.map((f) => `${f.seconds.toFixed(1)} ${f.file}\n`).join(''));
    const skipped = results.numPendingTests + results.numTodoTests;
    process.stdout.write(`\ntests: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n`);
  }
}
module.exports = SummaryReporter;
