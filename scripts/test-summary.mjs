// Prints one closing line for `npm test`: "Summary: N passed, N failed" over vitest and Playwright.
import { existsSync, readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
const notes = [];
const [vitestFile, e2eFile] = process.argv.slice(2);

if (vitestFile && existsSync(vitestFile)) {
  const v = JSON.parse(readFileSync(vitestFile, "utf8"));
  passed += v.numPassedTests;
  failed +=
    v.numFailedTests +
    (v.numTotalTestSuites > 0 && v.success === false && v.numFailedTests === 0 ? 1 : 0);
  notes.push(`vitest ${v.numPassedTests}/${v.numTotalTests}`);
} else {
  failed += 1;
  notes.push("vitest did not report");
}

if (e2eFile && existsSync(e2eFile)) {
  const s = JSON.parse(readFileSync(e2eFile, "utf8")).stats;
  passed += s.expected;
  failed += s.unexpected + s.flaky;
  notes.push(`playwright ${s.expected}/${s.expected + s.unexpected + s.flaky + s.skipped}`);
} else {
  failed += 1;
  notes.push("playwright did not report");
}

console.log(`(${notes.join(", ")})`);
console.log(`Summary: ${passed} passed, ${failed} failed`);
