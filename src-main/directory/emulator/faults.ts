import { GraphError } from './graph-error';

/** Failures the emulator injects into /v1.0 calls so clients can prove their retry handling. */
export interface FaultSettings {
  /** Every n-th Graph call answers 429 TooManyRequests. */
  rate_limit_every?: number | undefined;
  /** Every n-th Graph call answers 503 ServiceUnavailable. */
  unavailable_every?: number | undefined;
  /** Retry-After on those answers, in seconds (fractions allowed). Default 1. */
  retry_after_seconds?: number | undefined;
}

/** Counts Graph calls and says which one must fail; settings can change while running (tests). */
export class FaultInjector {
  private count = 0;

  constructor(private settings: FaultSettings = {}) {}

  set(settings: FaultSettings): void {
    this.settings = settings;
    this.count = 0;
  }

  /** The failure for this call, if it is one. */
  next(): GraphError | undefined {
    const { rate_limit_every: rate, unavailable_every: unavailable } = this.settings;
    if (!rate && !unavailable) return undefined;
    this.count += 1;
    const headers = { 'Retry-After': String(this.settings.retry_after_seconds ?? 1) };
    if (rate && this.count % rate === 0)
      return new GraphError(
        429,
        'TooManyRequests',
        'Too many requests have been sent in a short time. Retry after the time given in Retry-After.',
        headers,
      );
    if (unavailable && this.count % unavailable === 0)
      return new GraphError(
        503,
        'ServiceUnavailable',
        'The service is temporarily unavailable. Retry after the time given in Retry-After.',
        headers,
      );
    return undefined;
  }
}
