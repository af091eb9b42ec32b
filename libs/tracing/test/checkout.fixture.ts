import { Inject, Injectable } from '@nestjs/common';
import { TRACING_SERVICE, type ITracingService } from '../src';

/** An application service that traces its work the way users of the library do. */
@Injectable()
export class CheckoutService {
  constructor(@Inject(TRACING_SERVICE) readonly tracing: ITracingService) {}

  /** Three nested `withSpan` levels plus a manual span under the outermost one. */
  async checkout(orderId: string): Promise<string> {
    const tracing = this.tracing;
    return tracing.withSpan(
      'checkout',
      async () => {
        tracing.setAttribute('order.id', orderId);
        const reserved = await tracing.withSpan(
          'stock.reserve',
          async () => {
            tracing.addEvent('stock.checked', { items: 2 });
            const write = () => 'reserved';
            return tracing.withSpan('redis.HSET', write, { attributes: { 'db.system': 'redis' } });
          },
          { kind: 'INTERNAL' },
        );
        const payment = tracing.startSpan('payment.publish', {
          kind: 'PRODUCER',
          attributes: { 'messaging.system': 'redis' },
        });
        payment.setAttributes({ 'order.total': 42.5, 'order.paid': true }).addEvent('payment.sent');
        payment.setStatus('OK');
        payment.end();
        return `${orderId}:${reserved}`;
      },
      { kind: 'SERVER' },
    );
  }

  /** The same nesting, with `error` thrown from the innermost callback. */
  async failingCheckout(error: Error): Promise<void> {
    await this.tracing.withSpan('checkout', async () => {
      await this.tracing.withSpan('stock.reserve', async () => {
        await this.tracing.withSpan('redis.HSET', () => {
          throw error;
        });
      });
    });
  }
}
