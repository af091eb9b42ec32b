import type { MsteamsConfig, MsteamsV2Config } from '../../config';
import type { RenderText } from '../templating/notification-text';

/** A group's state as Teams colours it: firing, resolved, or neither (no alerts). */
export type TeamsStatus = 'firing' | 'resolved' | 'none';

const CONNECTOR_COLORS: Record<TeamsStatus, string> = {
  firing: '8C1A1A',
  resolved: '2DC72D',
  none: '808080',
};

const CARD_COLORS: Record<TeamsStatus, string> = {
  firing: 'Attention',
  resolved: 'Good',
  none: 'Warning',
};

/** Upstream's `msteams` message: a connector MessageCard with title, summary, text and colour. */
export function buildMsteamsPayload(
  config: MsteamsConfig,
  render: RenderText,
  status: TeamsStatus,
): Record<string, unknown> {
  return {
    '@context': 'http://schema.org/extensions',
    type: 'MessageCard',
    title: render(config.title),
    summary: render(config.summary),
    text: render(config.text),
    themeColor: CONNECTOR_COLORS[status],
  };
}

/**
 * Upstream's `msteamsv2` message: one Adaptive Card (version 1.2, full width) whose body is the
 * title as a coloured heading and the text, both wrapped.
 */
export function buildMsteamsV2Payload(
  config: MsteamsV2Config,
  render: RenderText,
  status: TeamsStatus,
): Record<string, unknown> {
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.2',
          body: [
            {
              type: 'TextBlock',
              text: render(config.title),
              weight: 'Bolder',
              size: 'Medium',
              wrap: true,
              style: 'heading',
              color: CARD_COLORS[status],
            },
            { type: 'TextBlock', text: render(config.text), wrap: true },
          ],
          msteams: { width: 'full' },
        },
      },
    ],
  };
}
