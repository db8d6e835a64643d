// The globals src-shared may use: those Node and the browser both have, with only the members it
// reads. Declared here because src-shared is checked with neither environment's types
// (tsconfig.shared.json); the renderer and main get the full ones from the DOM and from Node.
declare class URL {
  constructor(url: string, base?: string);
  readonly protocol: string;
  readonly hostname: string;
}
