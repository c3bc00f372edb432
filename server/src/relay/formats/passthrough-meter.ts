import type { Usage } from '../types.js';
import type { StreamMeter } from './client.js';
import type { SideMeter } from './side-meter.js';
import { WholeEvents } from './sse-events.js';

const EMPTY = Buffer.alloc(0);

/** Why a stream stopped before its end, as its client is told (in the format's error event). */
export interface StreamCut {
  status: number;
  message: string;
}

/** What every client format tells its client when the upstream stopped mid-answer (as the converted path does). */
export const UPSTREAM_CUT: StreamCut = { status: 502, message: '上游连接中断' };

/** A format's own stream meter, as a passthrough reads it. */
interface FormatMeter {
  readonly usage: Usage | null;
  readonly firstTokenAt: number;
  push(chunk: Buffer): Buffer;
  counted(): number;
}

/** A format's own stream passed through, read by the format's meter; the format states how the stream ends. */
export abstract class PassthroughMeter<M extends FormatMeter> implements StreamMeter {
  constructor(protected readonly meter: M) {}

  get usage(): Usage | null {
    return this.meter.usage;
  }

  get firstTokenAt(): number {
    return this.meter.firstTokenAt;
  }

  push(chunk: Buffer): Buffer {
    return this.meter.push(chunk);
  }

  abstract finish(cut: boolean, reason?: StreamCut): Buffer;

  counted(): number {
    return this.meter.counted();
  }
}

/**
 * A passthrough that forwards only whole events, so a stream that stops before its end gets no half event but the
 * format's error event, which the client's parser reads cleanly. The events from the one that ends the stream on are
 * held back for the end of the answer: the call is settled (journaled) before the client can take it as finished.
 */
export abstract class WholeEventsPassthroughMeter<M extends SideMeter<object>> extends PassthroughMeter<M> {
  private readonly events = new WholeEvents();
  private held: Buffer[] = [];

  /** The stream reached an end the client can take as final. */
  protected abstract ended(): boolean;

  /** The error event that closes a stream which did not end. */
  protected abstract cutEvent(reason: StreamCut): string;

  override push(chunk: Buffer): Buffer {
    this.meter.push(chunk);
    const whole = this.events.push(chunk);
    if (!this.ended() || whole.length === 0) return whole;
    this.held.push(whole);
    return EMPTY;
  }

  finish(cut: boolean, reason: StreamCut = UPSTREAM_CUT): Buffer {
    this.meter.finish();
    const held = this.held;
    this.held = [];
    // An upstream that ended cleanly but without a last blank line keeps its bytes; a cut one loses its half event.
    if (!cut && this.ended()) return Buffer.concat([...held, this.events.take()]);
    return Buffer.concat([...held, Buffer.from(this.cutEvent(reason))]);
  }
}
