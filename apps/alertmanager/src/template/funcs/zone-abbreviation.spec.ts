import { existsSync } from 'node:fs';
import { formatTime } from './go-time';
import { zoneAbbreviation } from './zone-abbreviation';
import { describeWhen } from '@redisx/testing';

/** Go reads zone names from the system's tzdata; so do we, where it is installed. */
const hasTzdata = existsSync('/usr/share/zoneinfo/Europe/Berlin') || !!process.env['ZONEINFO'];
const describeWithTzdata = describeWhen(
  hasTzdata,
  'zone abbreviation tests skipped: no tzdata in /usr/share/zoneinfo',
);

describeWithTzdata("zone abbreviations as Go's time package prints them", () => {
  it.each([
    ['Europe/Berlin', '2026-01-15T12:00:00Z', '13:00 CET +0100'],
    ['Europe/Berlin', '2026-07-15T12:00:00Z', '14:00 CEST +0200'],
    ['Europe/Berlin', '2100-07-01T12:00:00Z', '14:00 CEST +0200'],
    ['Europe/Berlin', '2100-12-01T12:00:00Z', '13:00 CET +0100'],
    ['America/New_York', '2026-01-15T12:00:00Z', '07:00 EST -0500'],
    ['America/New_York', '2026-07-15T12:00:00Z', '08:00 EDT -0400'],
    ['Europe/London', '2026-01-15T12:00:00Z', '12:00 GMT +0000'],
    ['Europe/London', '2026-07-15T12:00:00Z', '13:00 BST +0100'],
    ['Australia/Sydney', '2026-01-15T12:00:00Z', '23:00 AEDT +1100'],
    ['Australia/Sydney', '2026-07-15T12:00:00Z', '22:00 AEST +1000'],
    ['Asia/Tokyo', '2026-07-15T12:00:00Z', '21:00 JST +0900'],
    ['Asia/Kolkata', '2026-07-15T12:00:00Z', '17:30 IST +0530'],
    ['Europe/Moscow', '2026-07-15T12:00:00Z', '15:00 MSK +0300'],
    ['Asia/Dubai', '2026-07-15T12:00:00Z', '16:00 +04 +0400'],
    ['America/Sao_Paulo', '2026-07-15T12:00:00Z', '09:00 -03 -0300'],
    ['UTC', '2026-07-15T12:00:00Z', '12:00 UTC +0000'],
  ])('%s at %s reads %s', (zone, iso, expected) => {
    expect(formatTime(Date.parse(iso), '15:04 MST -0700', zone)).toBe(expected);
  });

  it('names the local mean time before a zone first changed', () => {
    expect(zoneAbbreviation('Europe/Berlin', Date.parse('1850-01-01T00:00:00Z'), 53)).toBe('LMT');
  });

  it.each(['../../etc/passwd', 'Nowhere/Zone', ''])('has no abbreviation for %j', (zone) => {
    expect(zoneAbbreviation(zone, 0, 0)).toBeUndefined();
  });
});
