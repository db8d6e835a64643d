/**
 * A failed Graph request: the HTTP status and the OData error code and message Graph uses for
 * the same failure. Routes throw it; the server turns it into Graph's error body.
 */
export class GraphError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra response headers, e.g. Retry-After on 429/503. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Which part of Graph a route belongs to: codes differ between the directory and Outlook. */
export type GraphArea = 'directory' | 'calendar';

export const notFound = (area: GraphArea, what: string): GraphError =>
  area === 'directory'
    ? new GraphError(
        404,
        'Request_ResourceNotFound',
        `Resource '${what}' does not exist or one of its queried reference-property objects are not present.`,
      )
    : new GraphError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');

export const accessDenied = (area: GraphArea): GraphError =>
  area === 'directory'
    ? new GraphError(403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.')
    : new GraphError(403, 'ErrorAccessDenied', 'Access is denied. Check credentials and try again.');

export const badRequest = (code: string, message: string): GraphError => new GraphError(400, code, message);

/** Graph's answer to a body property its type does not define. */
export const unknownProperty = (property: string, type: string): GraphError =>
  new GraphError(
    400,
    'RequestBodyRead',
    `The property '${property}' does not exist on type '${type}'. Make sure to only use property names that are defined by the type or mark the type as open type.`,
  );
