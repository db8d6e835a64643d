import { badRequest } from './graph-error';
import { canonicalName } from './property-names';

/** One `$expand` item, with the `$select` it may carry: `accessPackage($select=id,displayName)`. */
export interface ExpandItem {
  name: string;
  select?: string[];
  /** Navigation properties of the expanded object asked for in turn (`$expand=x($expand=y)`). */
  expand?: string[];
}

/** Splits on commas that are not inside parentheses. */
function splitTop(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim() !== '') out.push(current.trim());
  return out;
}

const noProperty = (name: string, type: string) =>
  badRequest('BadRequest', `Could not find a property named '${name}' on type 'microsoft.graph.${type}'.`);

/** `$select=a,b`: each must be a property of `type`. */
export function parseSelect(text: string | null, type: string, properties: readonly string[]): string[] | undefined {
  if (text === null) return undefined;
  const names = splitTop(text);
  if (names.length === 0) throw badRequest('BadRequest', "The query option '$select' needs at least one property name.");
  return names.map((name) => {
    const known = canonicalName(name, properties);
    if (known === undefined) throw noProperty(name, type);
    return known;
  });
}

/** `$expand=a,b($select=x)`: each must be a navigation property of `type`. */
export function parseExpand(
  text: string | null,
  type: string,
  navigation: Record<string, { type: string; properties: readonly string[]; navigation?: readonly string[] }>,
): ExpandItem[] {
  if (text === null) return [];
  return splitTop(text).map((item) => {
    const m = /^([A-Za-z]+)(?:\((.*)\))?$/.exec(item);
    if (!m) throw badRequest('BadRequest', `Invalid $expand item '${item}'.`);
    const name = canonicalName(m[1]!, Object.keys(navigation));
    const target = name === undefined ? undefined : navigation[name];
    if (name === undefined || !target) throw noProperty(m[1]!, type);
    if (m[2] === undefined || m[2].trim() === '') return { name };
    const options = new URLSearchParams(m[2].replace(/;/g, '&'));
    for (const key of options.keys())
      if (key !== '$select' && key !== '$expand') throw badRequest('BadRequest', `Query option '${key}' is not supported inside $expand.`);
    const nested = options.get('$expand');
    const expand = nested === null ? undefined : splitTop(nested).map((inner) => canonicalName(inner, target.navigation ?? []) ?? inner);
    for (const inner of expand ?? []) if (!target.navigation?.includes(inner)) throw noProperty(inner, target.type);
    return { name, select: parseSelect(options.get('$select'), target.type, target.properties), ...(expand ? { expand } : {}) };
  });
}

/** The object reduced to the selected properties (and any `@odata.*` annotations). */
export function applySelect(value: Record<string, unknown>, select: string[] | undefined): Record<string, unknown> {
  if (!select) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (key.startsWith('@odata.') || select.includes(key)) out[key] = v;
  return out;
}
