import type { z } from 'zod';
import type { ServiceDef, ServiceEmitter, ServiceImpl } from '../../src-shared/contract/define-service';
import { ContractFailure, err, ok, type Result } from '../../src-shared/contract/result';
import type { Logger } from '../platform/logger';

type EventListener = (payload: unknown) => void;

/**
 * Main's side of the contract: services are bound once, and every transport (Electron IPC,
 * WebSocket) goes through `call` and `subscribe`, so validation happens in one place.
 */
export interface ServiceHost {
  bind<S extends ServiceDef>(def: S, impl: ServiceImpl<S>): ServiceEmitter<S>;
  call(service: string, method: string, input: unknown): Promise<Result<unknown>>;
  subscribe(service: string, event: string, listener: EventListener): Result<() => void>;
  /** Someone listens to this event now: a service can skip building a payload nobody would get. */
  listening(service: string, event: string): boolean;
}

/** What a transport needs: calls and subscriptions, never binding. */
export type ServiceGateway = Pick<ServiceHost, 'call' | 'subscribe'>;

interface BoundService {
  def: ServiceDef;
  impl: Record<string, (input: unknown) => Promise<unknown>>;
  listeners: Map<string, Set<EventListener>>;
}

export function createServiceHost(logger: Logger): ServiceHost {
  const services = new Map<string, BoundService>();

  return {
    bind(def, impl) {
      if (services.has(def.name)) throw new Error(`service ${def.name} bound twice`);
      const bound: BoundService = {
        def,
        impl: impl as unknown as BoundService['impl'],
        listeners: new Map(),
      };
      services.set(def.name, bound);
      const emit = (event: string, payload: unknown): void => {
        // Nobody to tell (no window or console open): a payload nobody receives is not checked.
        const listeners = bound.listeners.get(event);
        if (!listeners?.size) return;
        const schema = def.events[event as `on${string}`];
        const parsed = schema?.safeParse(payload);
        if (!parsed?.success) {
          logger.error('event payload does not match the contract', { service: def.name, event });
          return;
        }
        for (const listener of listeners) listener(parsed.data);
      };
      return emit as ServiceEmitter<typeof def>;
    },

    listening(serviceName, event) {
      return (services.get(serviceName)?.listeners.get(event)?.size ?? 0) > 0;
    },

    async call(serviceName, methodName, input) {
      const service = services.get(serviceName);
      // Own properties only: a name like `constructor` must not reach Object.prototype.
      if (!service || !Object.hasOwn(service.def.methods, methodName) || !Object.hasOwn(service.impl, methodName)) {
        return err('not_found', `no method ${serviceName}.${methodName}`);
      }
      const method = service.def.methods[methodName]!;
      const fn = service.impl[methodName]!;
      const parsed = (method.input as z.ZodType).safeParse(input);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue?.path.length ? issue.path.join('.') + ': ' : '';
        return err('invalid_input', `${serviceName}.${methodName}: ${where}${issue?.message ?? 'invalid input'}`, parsed.error.issues);
      }
      try {
        const value = await fn(parsed.data);
        return ok((method.output as z.ZodType).parse(value));
      } catch (error) {
        if (error instanceof ContractFailure) return err(error.code, error.message, error.details);
        logger.error('service call failed', { service: serviceName, method: methodName, error: (error as Error).message });
        return err('internal', (error as Error).message || 'internal error');
      }
    },

    subscribe(serviceName, event, listener) {
      const service = services.get(serviceName);
      if (!service || !Object.hasOwn(service.def.events, event)) return err('not_found', `no event ${serviceName}.${event}`);
      let set = service.listeners.get(event);
      if (!set) service.listeners.set(event, (set = new Set()));
      set.add(listener);
      return ok(() => set.delete(listener));
    },
  };
}
