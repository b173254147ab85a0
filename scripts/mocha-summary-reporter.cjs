// Mocha's dot reporter plus one closing line in the plain form CI reads:
// "mocha: N passed, N failed, N skipped".
'use strict';
const Mocha = require('mocha');

class SummaryReporter extends Mocha.reporters.Dot {
  constructor(runner, options) {
    super(runner, options);
    runner.once('end', () => {
      const { passes, failures, pending } = runner.stats ?? this.stats;
      process.stdout.write(`mocha: ${passes} passed, ${failures} failed, ${pending} skipped\n`);
    });
  }
}

module.exports = SummaryReporter;
