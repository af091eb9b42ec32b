/**
 * Whether the server is ready to serve queries as fast as it will later (`/-/ready`): its
 * configuration is loaded, it listens, and its warm query thread has started and compiled the
 * common query paths.
 */
export interface ServerReadiness {
  ready(): boolean;
}

/** Injection token for {@link ServerReadiness}. */
export const ServerReadiness = Symbol('ServerReadiness');

/** Ready as soon as it listens: a server assembled without query threads (tests). */
export const READY_ONCE_LISTENING: ServerReadiness = { ready: () => true };
