// SOAP 1.2 envelopes as ONVIF devices write them, and the few reads a server needs of a request.

const NAMESPACES = {
  s: 'http://www.w3.org/2003/05/soap-envelope',
  tt: 'http://www.onvif.org/ver10/schema',
  tds: 'http://www.onvif.org/ver10/device/wsdl',
  trt: 'http://www.onvif.org/ver10/media/wsdl',
  ter: 'http://www.onvif.org/ver10/error',
};

export const xmlEscape = (text: string) => text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

export function envelope(body: string): string {
  const xmlns = Object.entries(NAMESPACES)
    .map(([prefix, uri]) => `xmlns:${prefix}="${uri}"`)
    .join(' ');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<s:Envelope ${xmlns}><s:Body>${body}</s:Body></s:Envelope>`;
}

/** A SOAP fault: `subcode` an ONVIF error (ter:ActionNotSupported, ter:InvalidArgVal, ...). */
export function fault(code: 'Sender' | 'Receiver', subcode: string, reason: string): string {
  return envelope(
    `<s:Fault><s:Code><s:Value>s:${code}</s:Value><s:Subcode><s:Value>${subcode}</s:Value></s:Subcode></s:Code><s:Reason><s:Text xml:lang="en">${xmlEscape(reason)}</s:Text></s:Reason></s:Fault>`,
  );
}

/** The operation a request asks for: the first element inside the SOAP Body, without its prefix. */
export function requestAction(xml: string): string | undefined {
  const body = /<(?:[\w-]+:)?Body\b[^>]*>\s*<(?:[\w-]+:)?([\w-]+)/.exec(xml);
  return body?.[1];
}

/** The text of the first element with this local name (`ProfileToken`), entities decoded. */
export function elementText(xml: string, name: string): string | undefined {
  const match = new RegExp(`<(?:[\\w-]+:)?${name}\\b[^>]*>([^<]*)</(?:[\\w-]+:)?${name}>`).exec(xml);
  return match?.[1]?.replace(/&(lt|gt|amp|quot|apos);/g, (_m, e: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[e]!);
}
