import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RuleManager } from '../../rules';
import { ScrapeManager } from '../../scrape';
import { sendFailure, sendSuccess } from './prometheus-reply';
import { alertsView, rulesView, ruleTypeFilter } from './rules-view';
import { targetStateFilter, targetsView } from './targets-view';

/**
 * Prometheus's `/api/v1/rules`, `/api/v1/alerts` and `/api/v1/targets`: the rule groups, their
 * alerts, and the scrape targets.
 */
@Controller('api/v1')
export class RulesApiController {
  constructor(
    @Inject(RuleManager) private readonly rules: RuleManager,
    @Inject(ScrapeManager) private readonly scrape: ScrapeManager,
  ) {}

  @Get('rules')
  list(@Req() req: Request, @Res() res: Response): void {
    try {
      const type = typeof req.query['type'] === 'string' ? req.query['type'] : null;
      sendSuccess(res, rulesView(this.rules.groups, ruleTypeFilter(type)));
    } catch (error) {
      sendFailure(res, error);
    }
  }

  @Get('alerts')
  alerts(@Res() res: Response): void {
    sendSuccess(res, alertsView(this.rules.groups));
  }

  @Get('targets')
  targets(@Req() req: Request, @Res() res: Response): void {
    try {
      const state = typeof req.query['state'] === 'string' ? req.query['state'] : null;
      sendSuccess(res, targetsView(this.scrape.scrapePools, targetStateFilter(state)));
    } catch (error) {
      sendFailure(res, error);
    }
  }
}
