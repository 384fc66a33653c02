/**
 * Prints the run's totals as one plain line, `tests: N passed, N failed, N skipped`, after jest's own
 * summary: the form CI tooling reads in any language.
 */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    process.stdout.write(`\ntests: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n`);
  }
}
module.exports = SummaryReporter;
