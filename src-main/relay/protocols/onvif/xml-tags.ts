// The few reads of SOAP that ONVIF needs, in one pass over the text. Regular expressions such as
// `<Body\b[^>]*>` rescan the rest of the text from every `<Body` they try, so a request of
// repeated `<a:Body ` (or a camera's answer of repeated `<Profiles `) took time growing with the
// square of its size before any login was checked. These scan each character a bounded number
// of times.

export interface XmlTag {
  /** The local name, without its prefix (`Body` for `<s:Body ...>`). */
  name: string;
  /** `</x>` */
  closing: boolean;
  /** What stands between the name and the `>`: the attributes. */
  attributes: string;
  /** Offset of the `<` and just past the `>`. */
  start: number;
  end: number;
}

const TAG = /^(\/?)(?:[\w-]+:)?([\w-]+)/;

/** Every tag in order; a `<` with no `>` after it ends the list, as nothing after it is a tag. */
export function* xmlTags(xml: string): Generator<XmlTag> {
  let at = 0;
  for (;;) {
    const open = xml.indexOf('<', at);
    if (open < 0) return;
    const close = xml.indexOf('>', open);
    if (close < 0) return;
    // `<a <b>`: the tag is the last `<` before the `>` (the region is scanned once, from both ends).
    const start = xml.lastIndexOf('<', close);
    at = close + 1;
    const inner = xml.slice(start + 1, close);
    const match = TAG.exec(inner);
    if (!match) continue;
    yield { name: match[2]!, closing: match[1] === '/', attributes: inner.slice(match[0].length), start, end: close + 1 };
  }
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const decode = (text: string) => text.replace(/&(lt|gt|amp|quot|apos);/g, (_m, e: string) => ENTITIES[e]!);

/** The text of the first element with this local name that holds text only (`<tt:Uri>...</tt:Uri>`), entities decoded. */
export function elementText(xml: string, name: string): string | undefined {
  let open: XmlTag | undefined;
  for (const tag of xmlTags(xml)) {
    if (open && tag.closing && tag.name === name && !xml.slice(open.end, tag.start).includes('<'))
      return decode(xml.slice(open.end, tag.start));
    open = !tag.closing && tag.name === name && !tag.attributes.endsWith('/') ? tag : undefined;
  }
  return undefined;
}

/** The operation a request asks for: the first element inside the SOAP Body, without its prefix. */
export function requestAction(xml: string): string | undefined {
  let body: XmlTag | undefined;
  for (const tag of xmlTags(xml)) {
    if (body && !tag.closing && xml.slice(body.end, tag.start).trim() === '') return tag.name;
    body = !tag.closing && tag.name === 'Body' ? tag : undefined;
  }
  return undefined;
}

/** An attribute's value (`token="main"` → `main`) from a tag's attribute text. */
export function attributeOf(tag: XmlTag, attribute: string): string | undefined {
  return new RegExp(`(?:^|\\s)(?:[\\w-]+:)?${attribute}="([^"]*)"`).exec(tag.attributes)?.[1];
}

/** The text from the first start tag with this name to its closing tag, both included. */
export function elementBlock(xml: string, name: string): string | undefined {
  let from: number | undefined;
  for (const tag of xmlTags(xml)) {
    if (tag.name !== name) continue;
    if (!tag.closing) from ??= tag.start;
    else if (from !== undefined) return xml.slice(from, tag.end);
  }
  return undefined;
}

/** The first tag with this name inside the first element named `parent` (`XAddr` in `Media`). */
export function childText(xml: string, parent: string, child: string): string | undefined {
  const block = elementBlock(xml, parent);
  return block === undefined ? undefined : elementText(block, child);
}
