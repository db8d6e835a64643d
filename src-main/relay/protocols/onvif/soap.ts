// SOAP 1.2 envelopes as ONVIF devices write them, and the few reads a server needs of a request.

const NAMESPACES = {
  s: 'http://www.w3.org/2003/05/soap-envelope',
  tt: 'http://www.onvif.org/ver10/schema',
  tds: 'http://www.onvif.org/ver10/device/wsdl',
  trt: 'http://www.onvif.org/ver10/media/wsdl',
  ter: 'http://www.onvif.org/ver10/error',
};

export const xmlEscape = (text: string) =>
  text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

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

// Reading requests and answers: one pass over the text (see xml-tags.ts for why not a RegExp).
export { elementText, requestAction } from './xml-tags';
