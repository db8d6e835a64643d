/** An error answered as Kodo does: the status code and JSON `{"error": message}`. */
export class KodoError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'KodoError';
  }
}
