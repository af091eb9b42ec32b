export { HttpClient, MAX_BODY_BYTES, userAgent } from '../http-client/http-client';
export type { HttpRequest, HttpResponse } from '../http-client/http-client';
export { buildReceivers, closeReceivers, INTEGRATION_NAMES } from './registry';
export { checkConfigTemplates, checkReceiverTemplates } from './templating/receiver-template-check';
export type { ReceiverDeps } from './registry';
export { buildWebhookPayload, formatGoTime, quoteMeta } from './webhook/webhook-payload';
export type { WebhookAlert, WebhookMessage, WebhookPayloadInput } from './webhook/webhook-payload';
export { WebhookNotifier } from './webhook/webhook.notifier';
