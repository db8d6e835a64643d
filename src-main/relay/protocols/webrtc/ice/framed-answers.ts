import { Transform, type TransformCallback } from 'node:stream';
import { BINDING_SUCCESS } from './stun';

/** RFC 4571: each message on an ICE-TCP connection follows its 2-byte length. */
const LENGTH_BYTES = 2;

/**
 * werift's side of an ICE-TCP connection on its way to the viewer, frame by frame (RFC 4571):
 * each binding success response is replaced by what `readdress` makes of it (the viewer's own
 * address, see `readdressedAnswer`), every other frame passes as it came, split across chunks or
 * not. Runs of frames go on as views of the chunk they came in; only a frame cut by a chunk's
 * end is kept until the rest comes.
 */
export class FramedAnswers extends Transform {
  private partial: Buffer | undefined;

  constructor(private readonly readdress: (answer: Buffer) => Buffer | undefined) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const data = this.partial ? Buffer.concat([this.partial, chunk]) : chunk;
    this.partial = undefined;
    let at = 0;
    let unsent = 0;
    while (at + LENGTH_BYTES <= data.length) {
      const end = at + LENGTH_BYTES + data.readUInt16BE(at);
      if (end > data.length) break;
      const answer = isBindingSuccess(data, at + LENGTH_BYTES, end) ? this.readdress(data.subarray(at + LENGTH_BYTES, end)) : undefined;
      if (answer) {
        if (at > unsent) this.push(data.subarray(unsent, at));
        const length = Buffer.allocUnsafe(LENGTH_BYTES);
        length.writeUInt16BE(answer.length, 0);
        this.push(Buffer.concat([length, answer]));
        unsent = end;
      }
      at = end;
    }
    if (at > unsent) this.push(data.subarray(unsent, at));
    if (at < data.length) this.partial = Buffer.from(data.subarray(at));
    done();
  }

  override _flush(done: TransformCallback): void {
    // A frame the agent never finished: what came of it still goes on.
    if (this.partial) this.push(this.partial);
    done();
  }
}

function isBindingSuccess(data: Buffer, start: number, end: number): boolean {
  return end - start >= 20 && data.readUInt16BE(start) === BINDING_SUCCESS;
}
