import type { Span, Tracer } from '@opentelemetry/api';
import type { Config } from './config.js';
import type { RelayExchange } from './relay/exchange.js';

/*
 * OpenTelemetry traces of relay calls, exported by OTLP over HTTP when OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set. Unset, the SDK is never loaded and the relay's only cost is one
 * null check per call. One span per relay call, from arrival to the end of the answer: the request id, the client's
 * address, the model, the channel that answered and the channels tried, tokens and quota, and the status the client
 * got (an error status marks the span as failed).
 */

export type TraceAttributes = Record<string, string | number | boolean>;

export interface CallTrace {
  set(attributes: TraceAttributes): void;
}

export interface Tracing {
  /** Starts the span of a relay call; it ends when the call's answer is over. */
  startCall(name: string, ex: RelayExchange): CallTrace;
  /** Exports what is still buffered and stops. */
  shutdown(): Promise<void>;
}

export async function openTracing(config: Config, version: string): Promise<Tracing | null> {
  if (!config.otelTracesEndpoint) return null;
  const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }, api] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/api'),
  ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.otelServiceName, 'service.version': version }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: config.otelTracesEndpoint }))],
  });
  const tracer: Tracer = provider.getTracer('switchyard');
  return {
    startCall(name, ex) {
      const span: Span = tracer.startSpan(name, {
        kind: api.SpanKind.SERVER,
        attributes: { 'http.request.method': 'POST', 'switchyard.request_id': ex.id, 'client.address': ex.ip },
      });
      ex.res.once('close', () => {
        const status = ex.res.statusCode;
        span.setAttribute('http.response.status_code', status);
        if (status >= 400 || !ex.res.writableFinished) span.setStatus({ code: api.SpanStatusCode.ERROR });
        span.end();
      });
      return { set: (attributes) => span.setAttributes(attributes) };
    },
    shutdown: () => provider.shutdown(),
  };
}
