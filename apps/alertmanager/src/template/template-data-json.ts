import { goTime } from './funcs/go-time';
import { GoStruct, type Value } from './exec/values';
import { alertList, kv } from './template-data';
import { GO_ZERO_TIME } from '../time/go-zero-time';

/** Upstream's `template.Data` in its JSON form (`amtool template render --template.data`). */
export interface TemplateDataJson {
  receiver?: string;
  status?: string;
  alerts?: {
    status?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    startsAt?: string;
    endsAt?: string;
    generatorURL?: string;
    fingerprint?: string;
  }[];
  groupLabels?: Record<string, string>;
  commonLabels?: Record<string, string>;
  commonAnnotations?: Record<string, string>;
  externalURL?: string;
}

/** A JSON time as epoch ms; absent is Go's zero time. */
function time(text: string | undefined): number {
  if (!text) return GO_ZERO_TIME;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new Error(`parsing time ${JSON.stringify(text)}: invalid time`);
  return ms;
}

/**
 * Template data given as JSON, taken as it is (statuses and common labels are not derived,
 * as upstream decodes the file straight into `template.Data`).
 */
export function templateDataFromJson(json: TemplateDataJson): GoStruct {
  const alerts = (json.alerts ?? []).map(
    (a) =>
      new GoStruct('template.Alert', {
        Status: a.status ?? '',
        Labels: kv(a.labels ?? {}),
        Annotations: kv(a.annotations ?? {}),
        StartsAt: goTime(time(a.startsAt)),
        EndsAt: goTime(time(a.endsAt)),
        GeneratorURL: a.generatorURL ?? '',
        Fingerprint: a.fingerprint ?? '',
      }),
  );
  const fields: Record<string, Value> = {
    Receiver: json.receiver ?? '',
    Status: json.status ?? '',
    Alerts: alertList(alerts),
    GroupLabels: kv(json.groupLabels ?? {}),
    CommonLabels: kv(json.commonLabels ?? {}),
    CommonAnnotations: kv(json.commonAnnotations ?? {}),
    ExternalURL: json.externalURL ?? '',
  };
  return new GoStruct('template.Data', fields);
}

/** amtool's predefined data for `template render` without `--template.data`. */
export function amtoolSampleData(now: number): TemplateDataJson {
  const at = (ms: number) => new Date(ms).toISOString();
  const common = { commonlabelkey1: 'commonlabelvalue1', commonlabelkey2: 'commonlabelvalue2' };
  const commonAnnotations = {
    commonannotationkey1: 'commonannotationvalue1',
    commonannotationkey2: 'commonannotationvalue2',
  };
  const alert = (extra: object, annotations: object, minutes: number, fingerprint: string) => ({
    status: 'alertstatus',
    labels: { ...common, ...extra },
    annotations: { ...commonAnnotations, ...annotations },
    startsAt: at(now - minutes * 60_000),
    endsAt: at(now),
    generatorURL: 'https://generatorurl.com',
    fingerprint,
  });
  return {
    receiver: 'receiver',
    status: 'alertstatus',
    alerts: [
      alert(
        { instance: 'foo.bar:1234', label1: 'value1', label2: 'value2' },
        { annotation1: 'value1', annotation2: 'value2' },
        5,
        'fingerprint1',
      ),
      alert({ foo: 'bar', baz: 'qux' }, { aaa: 'bbb', ccc: 'ddd' }, 10, 'fingerprint2'),
    ],
    groupLabels: { grouplabelkey1: 'grouplabelvalue1', grouplabelkey2: 'grouplabelvalue2' },
    commonLabels: common,
    commonAnnotations,
    externalURL: 'https://example.com',
  };
}
