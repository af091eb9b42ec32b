/**
 * Go's zero time, 0001-01-01T00:00:00Z, in milliseconds since the Unix epoch. Upstream clients
 * send it (or nothing) for a time they leave unset, and upstream prints it for the end of a
 * firing alert, so the model uses it for "unset" too: every real instant, the Unix epoch
 * included, stays a time of its own.
 */
export const GO_ZERO_TIME = -62_135_596_800_000;
