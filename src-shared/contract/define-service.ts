import type { z } from 'zod';
import type { Result } from './result';

/** One call of a service: the schema of what goes in and of what comes back. */
export interface MethodDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  input: I;
  output: O;
}

export type MethodDefs = Record<string, MethodDef>;
/** Events are named `onSomething`; each carries one validated payload. */
export type EventDefs = Record<`on${string}`, z.ZodType>;

/** One service of the contract: its name on the wire, its methods and its pushed events. */
export interface ServiceDef<N extends string = string, M extends MethodDefs = MethodDefs, E extends EventDefs = EventDefs> {
  name: N;
  methods: M;
  events: E;
}

export function defineService<const N extends string, M extends MethodDefs, E extends EventDefs>(
  def: ServiceDef<N, M, E>,
): ServiceDef<N, M, E> {
  return def;
}

export function method<I extends z.ZodType, O extends z.ZodType>(input: I, output: O): MethodDef<I, O> {
  return { input, output };
}

type MethodsOf<S> = S extends ServiceDef<string, infer M, EventDefs> ? M : never;
type EventsOf<S> = S extends ServiceDef<string, MethodDefs, infer E> ? E : never;

/** What main implements: validated input in, plain value out (throw ContractFailure for errors). */
export type ServiceImpl<S extends ServiceDef> = {
  [K in keyof MethodsOf<S>]: (input: z.output<MethodsOf<S>[K]['input']>) => Promise<z.input<MethodsOf<S>[K]['output']>>;
};

/** What the renderer holds: every method returns a Result; every event can be listened to. */
export type ServiceClient<S extends ServiceDef> = {
  [K in keyof MethodsOf<S>]: (input: z.input<MethodsOf<S>[K]['input']>) => Promise<Result<z.output<MethodsOf<S>[K]['output']>>>;
} & {
  [K in keyof EventsOf<S>]: (listener: (payload: z.output<EventsOf<S>[K]>) => void) => () => void;
};

/** How main pushes an event of a bound service. */
export type ServiceEmitter<S extends ServiceDef> = <K extends keyof EventsOf<S> & string>(
  event: K,
  payload: z.input<EventsOf<S>[K]>,
) => void;
