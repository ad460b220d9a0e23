// count_reporter.js — the browser tests' output as every suite of npm test prints it: one line per test
// ("ok   <title> — <detail>" or "FAIL <title> — <first line of the error; what an expect() received>"), then `N passed, N failed`
// (scripts/test.js reads that line). A test's detail is what it recorded with fixtures.js's detail().
export default class CountReporter {
  constructor() { this.passed = 0; this.failed = 0; }
  printsToStdio() { return true; }
  onTestEnd(test, result) {
    const title = test.titlePath().slice(2).join(' › ');
    const details = test.annotations.filter((a) => a.type === 'detail').map((a) => a.description).join('; ');
    if (result.status === 'passed') {
      this.passed++;
      console.log(`ok   ${title}${details ? ` — ${details}` : ''}`);
    } else if (result.status !== 'skipped') {
      this.failed++;
      // The error's first line, and what an expect() received (the line a flaky run needs to be understood).
      const lines = (result.error?.message ?? result.status).replace(/\u001b\[[0-9;]*m/g, '').split('\n').filter((l) => l.trim());
      const received = lines.filter((l) => /^\s*(Expected|Received)\b/.test(l)).map((l) => l.trim());
      console.log(`FAIL ${title} — ${[lines[0] ?? result.status, ...received].join('; ')}`);
    }
  }
  onError(error) {
    this.failed++;
    console.log(`FAIL (outside a test) — ${String(error.message ?? error).split('\n')[0]}`);
  }
  onEnd() {
    console.log(`${this.passed} passed, ${this.failed} failed`);
  }
}
