/** A command that failed at run time (server unreachable, request refused); exit code 1. */
export class AmtoolError extends Error {
  override readonly name = 'AmtoolError';
}
