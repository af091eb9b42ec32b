import type { HttpHeader, TlsConfig } from './http-config.model';

/** Upstream's top-level `tracing` section (OTLP export of Alertmanager's own spans). */
export interface TracingConfig {
  client_type: 'grpc' | 'http';
  endpoint: string;
  /** Fraction of traces to sample, 0 to 1. */
  sampling_fraction: number;
  insecure: boolean;
  tls_config: TlsConfig;
  headers: Record<string, HttpHeader>;
  compression?: string;
  /** Milliseconds; 0 means the exporter's default. */
  timeout: number;
}
