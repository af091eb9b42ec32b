import type { HttpConfig } from '../model/http-config.model';
import type { Secret } from '../model/secret';

/** The `sigv4` block of an `sns_configs` entry. */
export interface SnsSigv4 {
  region: string;
  access_key: string;
  secret_key?: Secret;
  profile: string;
  role_arn: string;
  external_id: string;
}

/** `sns_configs` entry: an SNS `Publish` signed with AWS Signature Version 4. */
export interface SnsConfig {
  send_resolved: boolean;
  http_config: HttpConfig;
  /** A template; empty: `https://sns.<region>.amazonaws.com/`. */
  api_url: string;
  sigv4: SnsSigv4;
  /** Exactly one of the three (templates). */
  topic_arn: string;
  phone_number: string;
  target_arn: string;
  subject: string;
  message: string;
  attributes: Record<string, string>;
  use_aws_http_client: boolean;
}
