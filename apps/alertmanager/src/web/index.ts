export { parseWebConfig } from './web-config.decoder';
export type { WebConfigStage } from './web-config.decoder';
export { WebConfigEnforcer } from './web-config-enforcer';
export type {
  ClientAuthType,
  HttpServerConfig,
  RateLimitConfig,
  TlsServerConfig,
  WebConfig,
  WebTlsVersion,
} from './web-config.model';
