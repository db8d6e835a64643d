// AMF0 (Action Message Format, Adobe's spec): the encoding of RTMP commands and of onMetaData.
// Numbers, booleans, strings, objects, ECMA arrays, strict arrays, null and undefined; dates
// are read as their millisecond number. AMF3 is not used by the publishers and servers we meet.

export type AmfValue = number | boolean | string | null | undefined | AmfValue[] | { [key: string]: AmfValue };

const NUMBER = 0x00;
const BOOLEAN = 0x01;
const STRING = 0x02;
const OBJECT = 0x03;
const NULL = 0x05;
const UNDEFINED = 0x06;
const ECMA_ARRAY = 0x08;
const OBJECT_END = 0x09;
const STRICT_ARRAY = 0x0a;
const DATE = 0x0b;
const LONG_STRING = 0x0c;

export class AmfError extends Error {
  override name = 'AmfError';
}

/**
 * How deep objects and arrays may nest. Commands and onMetaData nest two or three levels; each
 * level is a recursive call, so a message of nothing but container markers (5 bytes a level)
 * would otherwise overflow the stack long before the message size limit.
 */
export const MAX_AMF_DEPTH = 32;

function encodeString(text: string, withMarker: boolean): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length > 0xffff) {
    const header = Buffer.alloc(5);
    header[0] = LONG_STRING;
    header.writeUInt32BE(bytes.length, 1);
    return Buffer.concat([header, bytes]);
  }
  const header = Buffer.alloc(withMarker ? 3 : 2);
  if (withMarker) header[0] = STRING;
  header.writeUInt16BE(bytes.length, withMarker ? 1 : 0);
  return Buffer.concat([header, bytes]);
}

function encodeProperties(value: Record<string, AmfValue>): Buffer[] {
  const parts: Buffer[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    parts.push(encodeString(key, false), encodeAmf0(item));
  }
  parts.push(Buffer.from([0, 0, OBJECT_END]));
  return parts;
}

function encodeAmf0(value: AmfValue): Buffer {
  if (value === null) return Buffer.from([NULL]);
  if (value === undefined) return Buffer.from([UNDEFINED]);
  if (typeof value === 'number') {
    const out = Buffer.alloc(9);
    out[0] = NUMBER;
    out.writeDoubleBE(value, 1);
    return out;
  }
  if (typeof value === 'boolean') return Buffer.from([BOOLEAN, value ? 1 : 0]);
  if (typeof value === 'string') return encodeString(value, true);
  if (Array.isArray(value)) {
    const header = Buffer.alloc(5);
    header[0] = STRICT_ARRAY;
    header.writeUInt32BE(value.length, 1);
    return Buffer.concat([header, ...value.map(encodeAmf0)]);
  }
  return Buffer.concat([Buffer.from([OBJECT]), ...encodeProperties(value)]);
}

export const encodeAmf0Values = (values: AmfValue[]) => Buffer.concat(values.map(encodeAmf0));

/** Reads every value in `data` (a command: name, transaction id, command object, arguments). */
export function decodeAmf0Values(data: Buffer): AmfValue[] {
  let at = 0;
  const need = (n: number) => {
    if (at + n > data.length) throw new AmfError(`AMF0: value cut off at byte ${at}`);
  };
  const readString = (long: boolean): string => {
    need(long ? 4 : 2);
    const length = long ? data.readUInt32BE(at) : data.readUInt16BE(at);
    at += long ? 4 : 2;
    need(length);
    const text = data.toString('utf8', at, at + length);
    at += length;
    return text;
  };
  const readProperties = (depth: number): Record<string, AmfValue> => {
    const object: Record<string, AmfValue> = {};
    for (;;) {
      const key = readString(false);
      need(1);
      if (key === '' && data[at] === OBJECT_END) {
        at += 1;
        return object;
      }
      // defineProperty: a key named __proto__ stays data instead of replacing the prototype.
      Object.defineProperty(object, key, { value: read(depth), enumerable: true, writable: true, configurable: true });
    }
  };
  /** A container one level inside `depth` enclosing ones. */
  const inner = (depth: number): number => {
    if (depth >= MAX_AMF_DEPTH) throw new AmfError(`AMF0: values nested deeper than ${MAX_AMF_DEPTH}`);
    return depth + 1;
  };
  /** One value with `depth` objects and arrays around it. */
  const read = (depth: number): AmfValue => {
    need(1);
    const marker = data[at++];
    switch (marker) {
      case NUMBER:
        need(8);
        at += 8;
        return data.readDoubleBE(at - 8);
      case BOOLEAN:
        need(1);
        return data[at++] !== 0;
      case STRING:
        return readString(false);
      case LONG_STRING:
        return readString(true);
      case OBJECT:
        return readProperties(inner(depth));
      case ECMA_ARRAY:
        need(4);
        at += 4; // the count is a hint; the end marker ends it
        return readProperties(inner(depth));
      case STRICT_ARRAY: {
        const level = inner(depth);
        need(4);
        const count = data.readUInt32BE(at);
        at += 4;
        return Array.from({ length: count }, () => read(level));
      }
      case DATE:
        need(10);
        at += 10;
        return data.readDoubleBE(at - 10);
      case NULL:
        return null;
      case UNDEFINED:
        return undefined;
      default:
        throw new AmfError(`AMF0: unknown type marker 0x${(marker ?? 0).toString(16)} at byte ${at - 1}`);
    }
  };
  const values: AmfValue[] = [];
  while (at < data.length) values.push(read(0));
  return values;
}
