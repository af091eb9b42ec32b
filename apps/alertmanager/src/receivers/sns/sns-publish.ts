import { createHash } from 'node:crypto';
import type { SnsConfig } from '../../config';
import type { RenderText } from '../templating/notification-text';

/** SNS takes messages of at most 256 KiB, SMS of at most 1,600 bytes. */
const MAX_MESSAGE_BYTES = 256 * 1024;
const MAX_SMS_BYTES = 1600;

/**
 * The form of an SNS `Publish` (the AWS Query protocol, version 2010-03-31) as upstream's SDK
 * sends it: the target, the message (cut to SNS's limit, with a `truncated` attribute then), the
 * subject, the attributes (`MessageAttributes=` when there are none), and for a FIFO topic the
 * group key's hash as deduplication and group id; the keys in order, as the SDK encodes them.
 */
export function snsPublishForm(
  config: SnsConfig,
  render: RenderText,
  groupKey: string,
): URLSearchParams {
  const form = new URLSearchParams({ Action: 'Publish', Version: '2010-03-31' });
  let limit = MAX_MESSAGE_BYTES;
  if (config.topic_arn !== '') {
    const topic = render(config.topic_arn);
    form.set('TopicArn', topic);
    if (topic.endsWith('.fifo')) {
      const hash = createHash('sha256').update(groupKey).digest('hex');
      form.set('MessageDeduplicationId', hash);
      form.set('MessageGroupId', hash);
    }
  }
  if (config.phone_number !== '') {
    form.set('PhoneNumber', render(config.phone_number));
    limit = MAX_SMS_BYTES;
  }
  if (config.target_arn !== '') form.set('TargetArn', render(config.target_arn));
  const message = Buffer.from(render(config.message));
  const attributes = new Map(
    Object.entries(config.attributes).map(([k, v]) => [render(k), render(v)] as const),
  );
  if (message.length > limit) attributes.set('truncated', 'true');
  form.set('Message', message.subarray(0, limit).toString());
  if (config.subject !== '') form.set('Subject', render(config.subject));
  // The map is always set: with no attribute, the SDK writes it as the bare key.
  if (attributes.size === 0) form.set('MessageAttributes', '');
  [...attributes.keys()].sort().forEach((name, i) => {
    const entry = `MessageAttributes.entry.${i + 1}`;
    form.set(`${entry}.Name`, name);
    form.set(`${entry}.Value.DataType`, 'String');
    form.set(`${entry}.Value.StringValue`, attributes.get(name) as string);
  });
  // Go's `url.Values.Encode` writes the keys in order.
  form.sort();
  return form;
}
