/** `promise`, or an Error with `message` once `ms` pass first; the timer never outlives the race. */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]).finally(
    () => clearTimeout(timer),
  );
}
