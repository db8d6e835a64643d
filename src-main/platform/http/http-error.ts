/** An error that becomes an HTTP answer: the status and a message that says what was wrong. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}
