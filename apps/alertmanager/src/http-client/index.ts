export { BodyBuffer, BodyBufferPool } from './body-buffer';
export { failedReadingBody, HttpClient, MAX_BODY_BYTES, userAgent } from './http-client';
export type { HttpRequest, HttpResponse } from './http-client';
export { readSecret } from './http-secrets';
export { tlsOptions } from './tls-options';
