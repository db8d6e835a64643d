import type { z } from 'zod';
import type { ServiceClient, ServiceDef } from './define-service';
import { err, type Result } from './result';
import type { ClientTransport } from './transport';

/**
 * A typed client for one service over any transport. Outputs are checked against the contract
 * too, so a main/renderer mismatch shows up as a clear error value, not as undefined fields.
 */
export function createServiceClient<S extends ServiceDef>(def: S, transport: ClientTransport): ServiceClient<S> {
  const client: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(def.methods)) {
    client[name] = async (input: unknown): Promise<Result<unknown>> => {
      const result = await transport.call(def.name, name, input);
      if (!result.ok) return result;
      const parsed = (method.output as z.ZodType).safeParse(result.value);
      if (!parsed.success) return err('contract_mismatch', `${def.name}.${name}: reply does not match the contract`);
      return { ok: true, value: parsed.data };
    };
  }
  for (const [event, schema] of Object.entries(def.events)) {
    client[event] = (listener: (payload: unknown) => void) =>
      transport.subscribe(def.name, event, (payload) => {
        const parsed = (schema as z.ZodType).safeParse(payload);
        if (parsed.success) listener(parsed.data);
      });
  }
  return client as ServiceClient<S>;
}
