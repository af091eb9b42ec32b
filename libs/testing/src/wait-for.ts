/** Polls `probe` until it returns true or `timeoutMs` passes; throws with `what` in the message. */
export async function waitFor(
  what: string,
  probe: () => Promise<boolean> | boolean,
  timeoutMs = 10_000,
  intervalMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      if (await probe()) return;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${cause}`);
}

/** True when a GET of `url` answers with `status`. */
export async function httpAnswers(url: string, status = 200): Promise<boolean> {
  const response = await fetch(url);
  await response.arrayBuffer();
  return response.status === status;
}
