// Graph's dateTimeTimeZone: a wall-clock `dateTime` plus a `timeZone` given as a Windows name
// ("Pacific Standard Time") or an IANA name ("America/Los_Angeles"). Conversions go through
// Intl, so daylight saving time follows the IANA rules of the running Node.

/** Windows time-zone names Outlook uses, mapped to IANA (the common ones). */
const WINDOWS_ZONES: Record<string, string> = {
  UTC: 'UTC',
  'Coordinated Universal Time': 'UTC',
  'tzone://Microsoft/Utc': 'UTC',
  'GMT Standard Time': 'Europe/London',
  'Greenwich Standard Time': 'Atlantic/Reykjavik',
  'W. Europe Standard Time': 'Europe/Berlin',
  'Romance Standard Time': 'Europe/Paris',
  'Central Europe Standard Time': 'Europe/Budapest',
  'Central European Standard Time': 'Europe/Warsaw',
  'E. Europe Standard Time': 'Europe/Chisinau',
  'FLE Standard Time': 'Europe/Kiev',
  'GTB Standard Time': 'Europe/Bucharest',
  'Russian Standard Time': 'Europe/Moscow',
  'Turkey Standard Time': 'Europe/Istanbul',
  'Israel Standard Time': 'Asia/Jerusalem',
  'South Africa Standard Time': 'Africa/Johannesburg',
  'Arabian Standard Time': 'Asia/Dubai',
  'India Standard Time': 'Asia/Kolkata',
  'SE Asia Standard Time': 'Asia/Bangkok',
  'China Standard Time': 'Asia/Shanghai',
  'Singapore Standard Time': 'Asia/Singapore',
  'Tokyo Standard Time': 'Asia/Tokyo',
  'Korea Standard Time': 'Asia/Seoul',
  'AUS Eastern Standard Time': 'Australia/Sydney',
  'New Zealand Standard Time': 'Pacific/Auckland',
  'Eastern Standard Time': 'America/New_York',
  'Central Standard Time': 'America/Chicago',
  'Mountain Standard Time': 'America/Denver',
  'US Mountain Standard Time': 'America/Phoenix',
  'Pacific Standard Time': 'America/Los_Angeles',
  'Alaskan Standard Time': 'America/Anchorage',
  'Hawaiian Standard Time': 'Pacific/Honolulu',
  'Atlantic Standard Time': 'America/Halifax',
  'E. South America Standard Time': 'America/Sao_Paulo',
};

export interface WallTime {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
  ms: number;
}

/** Time-zone lookups with a cache of formatters, one instance per emulator. */
export class TimeZones {
  private readonly formatters = new Map<string, Intl.DateTimeFormat>();

  /** The IANA zone for a Graph time-zone name, or undefined when it is not one. */
  resolve(name: string): string | undefined {
    const mapped = WINDOWS_ZONES[name] ?? name;
    try {
      this.formatter(mapped);
      return mapped;
    } catch {
      return undefined;
    }
  }

  /** Offset of `zone` from UTC at the instant `utcMs`, in ms. */
  offset(utcMs: number, zone: string): number {
    if (zone === 'UTC') return 0;
    const parts = this.formatter(zone).formatToParts(new Date(utcMs));
    const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
    const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour') % 24, get('minute'), get('second'));
    return asUtc - Math.floor(utcMs / 1000) * 1000;
  }

  /** The instant of a wall-clock time in `zone` (a gap in spring resolves forward, as Outlook does). */
  toUtc(wall: WallTime, zone: string): number {
    const naive = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second, wall.ms);
    const first = naive - this.offset(naive, zone);
    const second = naive - this.offset(first, zone);
    return second;
  }

  toWall(utcMs: number, zone: string): WallTime {
    const d = new Date(utcMs + this.offset(utcMs, zone));
    return {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      second: d.getUTCSeconds(),
      ms: d.getUTCMilliseconds(),
    };
  }

  private formatter(zone: string): Intl.DateTimeFormat {
    let f = this.formatters.get(zone);
    if (!f) {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
      this.formatters.set(zone, f);
    }
    return f;
  }
}

const WALL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,7}))?)?(Z|[+-]\d{2}:\d{2})?$/;

/** Parses Graph's dateTime (`2024-05-01T09:00:00.0000000`); a trailing Z or offset is kept apart. */
export function parseWallTime(text: string): { wall: WallTime; offsetMinutes?: number } | undefined {
  const m = WALL.exec(text);
  if (!m) return undefined;
  const wall: WallTime = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4]),
    minute: Number(m[5]),
    second: Number(m[6] ?? 0),
    ms: Math.floor(Number(`0.${m[7] ?? '0'}`) * 1000),
  };
  const check = new Date(Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second));
  if (check.getUTCMonth() !== wall.month - 1 || check.getUTCDate() !== wall.day || wall.hour > 23 || wall.minute > 59 || wall.second > 59)
    return undefined;
  const zone = m[8];
  if (!zone) return { wall };
  if (zone === 'Z') return { wall, offsetMinutes: 0 };
  const sign = zone.startsWith('-') ? -1 : 1;
  return { wall, offsetMinutes: sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) };
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** Graph's dateTime text: seven fractional digits, no zone. */
export function formatWallTime(w: WallTime): string {
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}.${pad(w.ms, 3)}0000`;
}

/** ISO instant with Z and no fractional part, as Graph writes originalStart. */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
