import { KodoError } from './kodo-error';

export interface MultipartPart {
  name: string;
  filename: string | undefined;
  contentType: string | undefined;
  /** Must be read to the end (or drained) before asking for the next part. */
  body: AsyncGenerator<Buffer>;
}

export function boundaryOf(contentType: string | undefined): string {
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) throw new KodoError(400, 'expected multipart/form-data with a boundary');
  return boundary;
}

/**
 * A streaming multipart/form-data reader: file parts are never held whole in memory, which
 * matters because Kodo form uploads put the `crc32` field after the file.
 */
export async function* readMultipart(source: AsyncIterable<Buffer>, boundary: string): AsyncGenerator<MultipartPart> {
  const iterator = source[Symbol.asyncIterator]();
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  let buffer: Buffer = Buffer.from('\r\n');
  let ended = false;

  const pull = async (): Promise<boolean> => {
    if (ended) return false;
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      return false;
    }
    buffer = buffer.length === 0 ? next.value : Buffer.concat([buffer, next.value]);
    return true;
  };

  const need = async (bytes: number): Promise<void> => {
    while (buffer.length < bytes) if (!(await pull())) throw new KodoError(400, 'multipart body ended early');
  };

  // Preamble up to the first delimiter.
  for (;;) {
    const at = buffer.indexOf(delimiter);
    if (at >= 0) {
      buffer = buffer.subarray(at + delimiter.length);
      break;
    }
    if (buffer.length > delimiter.length) buffer = buffer.subarray(buffer.length - delimiter.length);
    if (!(await pull())) throw new KodoError(400, 'multipart body has no boundary');
  }

  for (;;) {
    await need(2);
    if (buffer[0] === 0x2d && buffer[1] === 0x2d) return; // closing `--`
    let headerEnd = buffer.indexOf('\r\n\r\n');
    while (headerEnd < 0) {
      if (buffer.length > 16 * 1024) throw new KodoError(400, 'multipart part headers too long');
      if (!(await pull())) throw new KodoError(400, 'multipart body ended in part headers');
      headerEnd = buffer.indexOf('\r\n\r\n');
    }
    const headerText = buffer.subarray(0, headerEnd).toString('utf8');
    buffer = buffer.subarray(headerEnd + 4);
    const headers = new Map<string, string>();
    for (const line of headerText.split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const disposition = headers.get('content-disposition') ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) throw new KodoError(400, 'multipart part without a name');
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];

    let done = false;
    async function* body(): AsyncGenerator<Buffer> {
      for (;;) {
        const at = buffer.indexOf(delimiter);
        if (at >= 0) {
          const chunk = buffer.subarray(0, at);
          buffer = buffer.subarray(at + delimiter.length);
          done = true;
          if (chunk.length > 0) yield chunk;
          return;
        }
        const safe = buffer.length - (delimiter.length - 1);
        if (safe > 0) {
          const chunk = buffer.subarray(0, safe);
          buffer = buffer.subarray(safe);
          yield chunk;
        }
        if (!(await pull())) throw new KodoError(400, 'multipart body ended inside a part');
      }
    }
    const part = body();
    yield {
      name,
      filename: filename === undefined ? undefined : safeDecode(filename),
      contentType: headers.get('content-type'),
      body: part,
    };
    if (!done) for await (const _ of part) void _; // drain what the consumer left
  }
}

export async function readAll(body: AsyncIterable<Buffer>, limit = 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) throw new KodoError(413, 'field too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
