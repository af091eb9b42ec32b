import { Catch, NotFoundException, type ArgumentsHost } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import type { Request, Response } from 'express';
import { sendGoMethodNotAllowed, sendGoNotFound, sendGoOptions } from './go-router-replies';

/** A route as Express keeps it: whether it takes a path, and the methods it answers. */
interface RouteLayer {
  route?: { methods: Record<string, boolean> };
  match(path: string): boolean;
}

/**
 * Requests no route takes, answered as upstream's router (Go's `httprouter`, under both
 * Alertmanager and Prometheus) answers them instead of Nest's JSON 404: a path that exists for
 * other methods gets `405 Method Not Allowed` (`OPTIONS`: 200) with `Allow` naming them and
 * OPTIONS, sorted; any other path `404 page not found`. A 404 a controller throws itself (a
 * route was taken) goes on as before.
 */
@Catch(NotFoundException)
export class UnroutedRequestFilter extends BaseExceptionFilter {
  override catch(exception: NotFoundException, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request & { route?: unknown }>();
    const res = http.getResponse<Response>();
    if (req.route !== undefined || res.headersSent) {
      super.catch(exception, host);
      return;
    }
    const methods = methodsOf(req);
    if (methods.length === 0) sendGoNotFound(res);
    else if (req.method === 'OPTIONS') sendGoOptions(res, methods);
    else sendGoMethodNotAllowed(res, methods);
  }
}

/** The methods the app's routes answer at the request's path (catch-all routes left out). */
function methodsOf(req: Request): string[] {
  const router = (req.app as unknown as { router?: { stack: RouteLayer[] } }).router;
  const found = new Set<string>();
  for (const layer of router?.stack ?? []) {
    const methods = layer.route?.methods;
    if (methods === undefined || methods._all || !layer.match(req.path)) continue;
    for (const [method, on] of Object.entries(methods)) if (on) found.add(method.toUpperCase());
  }
  return [...found];
}
