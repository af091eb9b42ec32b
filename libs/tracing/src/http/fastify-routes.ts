/** Where a request handled by Fastify keeps its route template for the SERVER span. */
export const FASTIFY_ROUTE = Symbol('redisx.tracing.fastifyRoute');

/** The parts of a Fastify instance and request this module touches. */
interface FastifyInstanceLike {
  addHook(
    name: 'onRequest',
    hook: (
      request: { raw: object; routeOptions?: { url?: string } },
      reply: unknown,
      done: () => void,
    ) => void,
  ): unknown;
}

/**
 * Under Nest's Fastify adapter the middleware sees Node's request, which carries no route; Fastify
 * knows the matched template (`/orders/:id`, global prefix included) as soon as a request arrives,
 * and this hook copies it onto Node's request, where the SERVER span reads it when it ends.
 */
export function recordFastifyRoutes(fastify: FastifyInstanceLike): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions?.url;
    if (route !== undefined) (request.raw as { [FASTIFY_ROUTE]?: string })[FASTIFY_ROUTE] = route;
    done();
  });
}
