export { AlertSender, type PostableAlert } from './alert-sender';
export { AlertSenderMetrics } from './alert-sender-metrics';
export { alertmanagerEndpoints, type AlertmanagerEndpoint } from './alertmanager-endpoints';
