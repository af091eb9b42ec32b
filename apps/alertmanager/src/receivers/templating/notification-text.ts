import type { Alert } from '../../alerts/alert.model';
import { NotifyError } from '../../notify/notifier';
import type { NotifyContext } from '../../notify/notify-context';
import { templateData, TemplateError, type TemplateSet } from '../../template';

/** Renders one config text (a template) for a notification; throws a non-retryable error. */
export type RenderText = (text: string) => string;

/**
 * The renderers of one notification: `text` as upstream's `ExecuteTextString`, `html` as its
 * `ExecuteHTMLString`. A template that fails fails the notification without retry, as upstream.
 */
export function notificationRenderers(
  templates: TemplateSet,
  externalUrl: string,
  ctx: NotifyContext,
  alerts: readonly Alert[],
): { text: RenderText; html: RenderText } {
  const data = templateData({
    receiver: ctx.receiver,
    groupLabels: ctx.groupLabels,
    alerts,
    externalURL: externalUrl,
    now: ctx.now,
  });
  const render = (mode: 'text' | 'html') => (text: string) => {
    try {
      return templates.render(text, data, { now: ctx.now, mode });
    } catch (err) {
      if (err instanceof TemplateError) throw new NotifyError(err.message, false);
      throw err;
    }
  };
  return { text: render('text'), html: render('html') };
}

/** Upstream's `notify.Truncate`: at most `max` runes, the last one `…` when cut. */
export function truncateRunes(text: string, max: number): { text: string; truncated: boolean } {
  const runes = [...text];
  if (runes.length <= max) return { text, truncated: false };
  return { text: `${runes.slice(0, max - 1).join('')}…`, truncated: true };
}
