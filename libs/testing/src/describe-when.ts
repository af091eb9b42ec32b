/**
 * `describe` where what the suite needs is at hand, else `describe.skip` after printing why on
 * standard error (Jest shows none of the console output of a suite whose tests were all
 * skipped, so a `console.warn` there is never seen).
 */
export function describeWhen(present: boolean, whySkipped: string): jest.Describe {
  if (present) return describe;
  process.stderr.write(`${whySkipped}\n`);
  return describe.skip;
}
