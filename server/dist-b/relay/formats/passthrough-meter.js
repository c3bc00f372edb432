import { WholeEvents } from './sse-events.js';
/** What every client format tells its client when the upstream stopped mid-answer (as the converted path does). */
export const UPSTREAM_CUT = { status: 502, message: '上游连接中断' };
/** A format's own stream passed through, read by the format's meter; the format states how the stream ends. */
export class PassthroughMeter {
    meter;
    constructor(meter) {
        this.meter = meter;
    }
    get usage() {
        return this.meter.usage;
    }
    get firstTokenAt() {
        return this.meter.firstTokenAt;
    }
    push(chunk) {
        return this.meter.push(chunk);
    }
    counted() {
        return this.meter.counted();
    }
}
/**
 * A passthrough that forwards only whole events, so a stream that stops before its end gets no half event but the
 * format's error event, which the client's parser reads cleanly.
 */
export class WholeEventsPassthroughMeter extends PassthroughMeter {
    events = new WholeEvents();
    push(chunk) {
        this.meter.push(chunk);
        return this.events.push(chunk);
    }
    finish(cut, reason = UPSTREAM_CUT) {
        this.meter.finish();
        // An upstream that ended cleanly but without a last blank line keeps its bytes; a cut one loses its half event.
        if (!cut && this.ended())
            return this.events.take();
        return Buffer.from(this.cutEvent(reason));
    }
}
//# sourceMappingURL=passthrough-meter.js.map