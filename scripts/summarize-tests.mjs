// Prints the closing line CI reads, `tests: N passed, N failed, N skipped`, from vitest's JSON
// report. A missing report or a run that executed no test is a failure, so it cannot pass silently.
import { existsSync, readFileSync } from 'node:fs';

const reportPath = process.argv[2] ?? '.vitest-report.json';
if (!existsSync(reportPath)) {
  console.log('tests: 0 passed, 1 failed (vitest wrote no report)');
  process.exit(1);
}
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const passed = report.numPassedTests ?? 0;
const failed = (report.numFailedTests ?? 0) + (report.numRuntimeErrorTestSuites ?? 0);
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (passed === 0 || failed > 0) process.exit(1);
