import { createHash, createHmac } from 'node:crypto';
import { parseConfig } from '../../config';
import { caseAlerts, caseContext } from '../testing/integration-case';
import { LoopbackApi } from '../testing/loopback-api';
import { defaultTemplates } from '../../template';
import { SnsNotifier } from './sns.notifier';

/**
 * SNS Publish against a loopback endpoint (`api_url`): the form upstream's SDK sends, and a
 * Signature Version 4 the test recomputes step by step from what the endpoint received.
 */
let api: LoopbackApi;
beforeEach(async () => {
  api = await new LoopbackApi().start();
});
afterEach(() => api.stop());

function notifier(entry: string): SnsNotifier {
  const config = parseConfig(
    `route: {receiver: team}\nreceivers:\n  - name: team\n    sns_configs:\n      - ${entry}\n`,
    'am.yml',
  );
  return new SnsNotifier(
    config.receivers[0].sns_configs[0],
    defaultTemplates(),
    'http://am.example:9093',
  );
}

const hex = (data: string) => createHash('sha256').update(data).digest('hex');
const mac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

describe('SNS Publish', () => {
  it('posts the Publish form, signed with SigV4 for the region', async () => {
    const sns = notifier(
      `{api_url: '${'$'}URL/sns/', sigv4: {region: eu-west-1, access_key: AKIDEXAMPLE, secret_key: s3cr3t}, topic_arn: 'arn:aws:sns:eu-west-1:123456789012:alerts', subject: 'S {{ .Status }}', message: 'M', attributes: {team: '{{ .CommonLabels.severity }}'}}`.replace(
        '$URL',
        api.url,
      ),
    );
    await sns.notify(caseContext(), caseAlerts(false));
    sns.close();
    expect(api.requests).toHaveLength(1);
    const [req] = api.requests;
    expect([req.method, req.url]).toEqual(['POST', '/sns/']);
    expect(req.body).toBe(
      [
        'Action=Publish',
        'Message=M',
        'MessageAttributes.entry.1.Name=team',
        'MessageAttributes.entry.1.Value.DataType=String',
        'MessageAttributes.entry.1.Value.StringValue=critical',
        'Subject=S+firing',
        'TopicArn=arn%3Aaws%3Asns%3Aeu-west-1%3A123456789012%3Aalerts',
        'Version=2010-03-31',
      ].join('&'),
    );
    expect(req.headers['content-length']).toBe(String(Buffer.byteLength(req.body)));
    // The signature, recomputed from the request as received.
    const amzDate = req.headers['x-amz-date'] as string;
    expect(amzDate).toBe(new Date(caseContext().now).toISOString().replace(/[-:]|\.\d{3}/g, ''));
    const auth =
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/(\d{8})\/eu-west-1\/sns\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
        req.headers['authorization'] as string,
      );
    expect(auth).not.toBeNull();
    const [, day, signedHeaders, signature] = auth as RegExpExecArray;
    expect(signedHeaders).toBe('content-length;content-type;host;x-amz-date');
    const canonical = [
      'POST',
      '/sns/',
      '',
      signedHeaders
        .split(';')
        .map((h) => `${h}:${req.headers[h] as string}\n`)
        .join(''),
      signedHeaders,
      hex(req.body),
    ].join('\n');
    const toSign = [
      'AWS4-HMAC-SHA256',
      amzDate,
      `${day}/eu-west-1/sns/aws4_request`,
      hex(canonical),
    ].join('\n');
    const key = mac(mac(mac(mac('AWS4s3cr3t', day), 'eu-west-1'), 'sns'), 'aws4_request');
    expect(createHmac('sha256', key).update(toSign).digest('hex')).toBe(signature);
  });

  // The SDK writes the form with its keys sorted, and a map set but empty as its bare key.
  it.each([
    [
      'no attributes: MessageAttributes as a bare key',
      `topic_arn: 'arn:aws:sns:us-east-1:1:alerts', subject: 'S', message: 'M'`,
      'Action=Publish&Message=M&MessageAttributes=&Subject=S&TopicArn=arn%3Aaws%3Asns%3Aus-east-1%3A1%3Aalerts&Version=2010-03-31',
    ],
    [
      'two attributes, numbered in the order of their names',
      `target_arn: 'arn:aws:sns:us-east-1:1:endpoint/x', subject: 'S', message: 'M', attributes: {zone: z, app: a}`,
      'Action=Publish&Message=M&MessageAttributes.entry.1.Name=app&MessageAttributes.entry.1.Value.DataType=String&MessageAttributes.entry.1.Value.StringValue=a&MessageAttributes.entry.2.Name=zone&MessageAttributes.entry.2.Value.DataType=String&MessageAttributes.entry.2.Value.StringValue=z&Subject=S&TargetArn=arn%3Aaws%3Asns%3Aus-east-1%3A1%3Aendpoint%2Fx&Version=2010-03-31',
    ],
  ])('sends the exact form: %s, signing its content-length', async (_name, keys, body) => {
    const sns = notifier(
      `{api_url: '${api.url}', sigv4: {region: us-east-1, access_key: A, secret_key: S}, ${keys}}`,
    );
    await sns.notify(caseContext(), caseAlerts(false));
    sns.close();
    const [req] = api.requests;
    expect(req.body).toBe(body);
    expect([req.headers['content-length'], req.headers['content-type']]).toEqual([
      String(Buffer.byteLength(body)),
      'application/x-www-form-urlencoded; charset=utf-8',
    ]);
    expect(req.headers['authorization']).toMatch(
      / SignedHeaders=content-length;content-type;host;x-amz-date, /,
    );
  });

  it('sends an SMS to a phone number, cut to 1,600 bytes and marked truncated', async () => {
    const sns = notifier(
      `{api_url: '${api.url}', sigv4: {region: us-east-1, access_key: A, secret_key: S}, phone_number: '+15555550100', message: '${'y'.repeat(1700)}'}`,
    );
    await sns.notify(caseContext(), caseAlerts(false));
    sns.close();
    const form = new URLSearchParams(api.requests[0].body);
    expect(form.get('PhoneNumber')).toBe('+15555550100');
    expect(form.get('Message')).toHaveLength(1600);
    expect(form.get('MessageAttributes.entry.1.Name')).toBe('truncated');
  });

  it('gives a FIFO topic the group key hash as deduplication and group id', async () => {
    const sns = notifier(
      `{api_url: '${api.url}', sigv4: {region: us-east-1, access_key: A, secret_key: S}, topic_arn: 'arn:aws:sns:us-east-1:1:alerts.fifo'}`,
    );
    await sns.notify(caseContext(), caseAlerts(false));
    sns.close();
    const form = new URLSearchParams(api.requests[0].body);
    const hash = hex(caseContext().groupKey);
    expect([form.get('MessageDeduplicationId'), form.get('MessageGroupId')]).toEqual([hash, hash]);
  });

  it.each([
    [500, true],
    [400, false],
  ])('answers %d with SNS error message, retried: %s', async (status, retried) => {
    api.reply({
      status,
      body: '<ErrorResponse><Error><Code>InvalidParameter</Code><Message>Invalid parameter: TopicArn</Message></Error></ErrorResponse>',
    });
    const sns = notifier(
      `{api_url: '${api.url}', sigv4: {region: us-east-1, access_key: A, secret_key: S}, topic_arn: t}`,
    );
    await expect(sns.notify(caseContext(), caseAlerts(false))).rejects.toMatchObject({
      message: `unexpected status code ${status}: Invalid parameter: TopicArn`,
      retryable: retried,
    });
    sns.close();
  });
});
